/**
 * Portfolios: an accounting firm's clients, kept per account as named lists of organisation
 * numbers, so one call answers every client's deadlines (domain/portfolios/deadlines.ts). At most
 * `MAX_PORTFOLIOS` an account and `MAX_COMPANIES` a portfolio. A list is checked whole before
 * anything is stored: one number that is not nine digits or fails MOD-11 refuses the request,
 * naming it. A sub-unit's number (underenhet) is kept as given and stands for its legal entity when
 * the portfolio is read — the way every company read answers it (domain/company/register.ts
 * `resolveOrg`) — so nothing is fetched from the register on write.
 */
import { AppError, validationError, type FieldIssue } from '../../errors/app-error.ts'
import { hasValidCheckDigit, isOrgNumberShape } from '../../lib/org-number.ts'
import { lockConsumer } from '../../store/accounts.ts'
import type { Sql } from '../../store/db.ts'
import * as store from '../../store/portfolios.ts'
import { queueWarmups } from '../../store/register-warmups.ts'

export const MAX_PORTFOLIOS = 20
export const MAX_COMPANIES = 1000
/** Enough to fix a list by; a list of a thousand bad numbers need not be repeated in full. */
const MAX_ISSUES = 20

/** What every answer about a portfolio's companies says about sub-units, in both languages. */
export const SUB_UNIT_NOTE = {
  note_nb:
    'Et organisasjonsnummer for en underenhet (filial, butikk, avdeling) lagres slik det er oppgitt og står for den juridiske personen den hører til: fristene er den juridiske personens, og underenheten navngis når porteføljen leses.',
  note_en:
    'A sub-unit’s number (underenhet: a branch, shop or site) is kept as given and stands for the legal entity it belongs to: the deadlines are that entity’s, and the sub-unit is named when the portfolio is read.',
} as const

export function portfolioView(p: store.PortfolioRow) {
  return {
    portfolio_id: p.id,
    name: p.name,
    company_count: p.company_count,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  }
}

function checkedName(name: string): string {
  if (name.trim() === '') throw validationError([{ field: 'name', message: 'must not be blank' }])
  if (name.includes('\u0000') || !name.isWellFormed())
    throw validationError([{ field: 'name', message: 'holds a character that cannot be stored' }])
  return name
}

/** Counted under the consumer's row lock, so concurrent creations cannot pass the cap together. */
export async function createPortfolio(sql: Sql, consumerId: string, name: string, now: Date) {
  const checked = checkedName(name)
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await lockConsumer(t, consumerId)
    if ((await store.countPortfolios(t, consumerId)) >= MAX_PORTFOLIOS) {
      throw validationError([
        { field: 'portfolios', message: `at most ${MAX_PORTFOLIOS} portfolios per account; delete one first` },
      ])
    }
    return portfolioView(await store.insertPortfolio(t, consumerId, checked, now))
  }) as Promise<ReturnType<typeof portfolioView>>
}

export async function listPortfolios(sql: Sql, consumerId: string) {
  const rows = await store.listPortfolios(sql, consumerId)
  return {
    count: rows.length,
    max_portfolios: MAX_PORTFOLIOS,
    max_companies: MAX_COMPANIES,
    portfolios: rows.map(portfolioView),
  }
}

/** The consumer's portfolio, or 404 — another account's is not found, exactly like one that never existed. */
export async function requirePortfolio(sql: Sql, consumerId: string, id: string): Promise<store.PortfolioRow> {
  const row = await store.findPortfolio(sql, consumerId, id)
  if (!row) throw new AppError('NOT_FOUND')
  return row
}

export async function getPortfolio(sql: Sql, consumerId: string, id: string) {
  const row = await requirePortfolio(sql, consumerId, id)
  const companies = await store.portfolioCompanies(sql, id)
  return {
    ...portfolioView(row),
    companies: companies.map((c) => ({ org_number: c.org_number, added_at: c.added_at.toISOString() })),
    sub_units: SUB_UNIT_NOTE,
  }
}

/** Every number in the list that is not an organisation number, named with its place; empty when none. */
export function orgNumberIssues(orgNumbers: readonly string[]): FieldIssue[] {
  const out: FieldIssue[] = []
  for (const [i, n] of orgNumbers.entries()) {
    if (out.length >= MAX_ISSUES) break
    const shown = JSON.stringify(n.length > 20 ? `${n.slice(0, 20)}…` : n)
    if (!isOrgNumberShape(n))
      out.push({ field: `org_numbers.${i}`, message: `${shown} is not an organisation number (nine digits)` })
    else if (!hasValidCheckDigit(n))
      out.push({
        field: `org_numbers.${i}`,
        message: `${shown} fails the check-digit test (MOD-11): no organisation has this number`,
      })
  }
  return out
}

/**
 * Replaces the portfolio's companies. Duplicates collapse; the whole list is refused, and nothing
 * changes, when one number is invalid or more than `MAX_COMPANIES` distinct numbers are given.
 */
export async function setCompanies(sql: Sql, consumerId: string, id: string, orgNumbers: string[], now: Date) {
  const issues = orgNumberIssues(orgNumbers)
  if (issues.length > 0) throw validationError(issues)
  const distinct = [...new Set(orgNumbers)].sort()
  if (distinct.length > MAX_COMPANIES)
    throw validationError([
      { field: 'org_numbers', message: `at most ${MAX_COMPANIES} distinct organisation numbers per portfolio` },
    ])
  // New numbers are queued for the background warm-up (domain/portfolios/warmup.ts): nothing is read from the register here.
  const done = await sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    if (!(await store.replaceCompanies(t, consumerId, id, distinct, now))) return false
    await queueWarmups(t, distinct, now)
    return true
  })
  if (!done) throw new AppError('NOT_FOUND')
  return {
    portfolio_id: id,
    company_count: distinct.length,
    duplicates_removed: orgNumbers.length - distinct.length,
    org_numbers: distinct,
    sub_units: SUB_UNIT_NOTE,
  }
}

export async function deletePortfolio(sql: Sql, consumerId: string, id: string) {
  if (!(await store.deletePortfolio(sql, consumerId, id))) throw new AppError('NOT_FOUND')
  return { portfolio_id: id, deleted: true as const }
}
