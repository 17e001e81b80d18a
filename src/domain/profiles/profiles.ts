/**
 * Saved profiles: named presets of an organisation, an action type and a payload template, kept
 * per account so an agent can feed the execute route the same way each time. The schema allows
 * only `org_number`, `action` and `payload` in `config`; here the rest of what must hold before
 * anything is stored: no key-, token- or identity-number-shaped string anywhere (property names
 * included), a payload of at most 64 KiB, nothing PostgreSQL cannot store, and at most 100
 * profiles an account. A refusal names every offending path and never repeats what was there.
 */
import { hasValidCheckDigit } from '../../lib/org-number.ts'
import { AppError, validationError, type FieldIssue } from '../../errors/app-error.ts'
import { lockConsumer } from '../../store/accounts.ts'
import type { Sql } from '../../store/db.ts'
import * as store from '../../store/profiles.ts'
import { secretShapeOf } from './secret-shapes.ts'
import { MAX_PAYLOAD_BYTES, payloadTooLarge } from '../actions/payload.ts'

export const MAX_PROFILES = 100
/** Enough to fix a request by; a payload of thousands of bad strings need not be listed in full. */
const MAX_ISSUES = 20
const MAX_FIELD_LENGTH = 200

export interface ProfileConfig {
  org_number?: string
  action?: 'mva_melding' | 'a_melding'
  payload?: Record<string, unknown>
}

export interface ProfileInput {
  name: string
  config?: ProfileConfig
}

const NEVER = 'a profile never holds a key, a token or an identity number'

function fieldOf(path: string[]): string {
  const f = path.join('.')
  return f.length > MAX_FIELD_LENGTH ? `${f.slice(0, MAX_FIELD_LENGTH - 1)}…` : f
}

/** A string PostgreSQL refuses in text and jsonb: a NUL, or a lone UTF-16 surrogate. */
const unstorable = (s: string) => s.includes('\u0000') || !s.isWellFormed()

/** What is wrong with one string, or null. */
function stringIssue(s: string): string | null {
  if (unstorable(s)) return 'holds a character that cannot be stored (NUL or a lone surrogate)'
  const shape = secretShapeOf(s)
  return shape ? `looks like ${shape}; ${NEVER}` : null
}

function walk(value: unknown, path: string[], out: FieldIssue[]): void {
  if (out.length >= MAX_ISSUES) return
  if (typeof value === 'string') {
    const issue = stringIssue(value)
    if (issue) out.push({ field: fieldOf(path), message: issue })
  } else if (typeof value === 'number') {
    // An identity number sent as a JSON number: eleven digits, the first not 0.
    if (Number.isSafeInteger(value) && secretShapeOf(String(value)))
      out.push({ field: fieldOf(path), message: `looks like an identity number; ${NEVER}` })
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...path, String(i)], out))
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (out.length >= MAX_ISSUES) return
      const issue = stringIssue(k)
      // The name itself is the problem: it is not repeated in the path, and what it holds is not looked at.
      if (issue) out.push({ field: fieldOf(path), message: `has a property name that ${issue}` })
      else walk(v, [...path, k], out)
    }
  }
}

/** Every reason the profile may not be stored; empty when it may. */
export function profileIssues(input: ProfileInput): FieldIssue[] {
  const out: FieldIssue[] = []
  if (input.name.trim() === '') out.push({ field: 'name', message: 'must not be blank' })
  else walk(input.name, ['name'], out)
  const payload = input.config?.payload
  if (payload !== undefined && payloadTooLarge(payload)) {
    out.push({ field: 'config.payload', message: `must be at most 64 KiB (${MAX_PAYLOAD_BYTES} bytes) as UTF-8 JSON` })
    return out
  }
  walk(input.config ?? {}, ['config'], out)
  return out
}

function checked(input: ProfileInput): { name: string; config: Record<string, unknown> } {
  const issues = profileIssues(input)
  if (issues.length > 0) throw validationError(issues)
  return { name: input.name, config: { ...input.config } }
}

/** What in a saved config will not pass where it is used: an org number failing MOD-11. */
function warningsOf(config: store.ProfileRow['config']) {
  const org = (config as { org_number?: unknown }).org_number
  if (typeof org !== 'string' || hasValidCheckDigit(org)) return []
  return [
    {
      field: 'config.org_number',
      code: 'ORG_NUMBER_CHECK_DIGIT' as const,
      message_nb: `${org} består ikke kontrollsiffersjekken (MOD-11): ingen virksomhet har dette nummeret, og det avvises der profilen brukes. Profilen er lagret.`,
      message_en: `${org} fails the check-digit test (MOD-11): no organisation has this number, and it is refused where the profile is used. The profile is saved.`,
    },
  ]
}

export function profileView(p: store.ProfileRow) {
  const warnings = warningsOf(p.config)
  return {
    id: p.id,
    name: p.name,
    config: p.config,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    ...(warnings.length > 0 ? { warnings } : {}),
  }
}

/** Counted under the consumer's row lock, so concurrent saves cannot pass the cap together. */
export async function createProfile(sql: Sql, consumerId: string, input: ProfileInput, now: Date) {
  const p = checked(input)
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await lockConsumer(t, consumerId)
    if ((await store.countProfiles(t, consumerId)) >= MAX_PROFILES) {
      throw validationError([
        { field: 'profiles', message: `at most ${MAX_PROFILES} saved profiles per account; delete one first` },
      ])
    }
    return profileView(await store.insertProfile(t, consumerId, p.name, p.config, now))
  }) as Promise<ReturnType<typeof profileView>>
}

export async function listProfiles(sql: Sql, consumerId: string) {
  const rows = await store.listProfiles(sql, consumerId)
  return { count: rows.length, max_profiles: MAX_PROFILES, profiles: rows.map(profileView) }
}

/** Another account's profile is not found, exactly like one that never existed. */
export async function getProfile(sql: Sql, consumerId: string, id: string) {
  const row = await store.findProfile(sql, consumerId, id)
  if (!row) throw new AppError('NOT_FOUND')
  return profileView(row)
}

export async function replaceProfile(sql: Sql, consumerId: string, id: string, input: ProfileInput, now: Date) {
  const p = checked(input)
  const row = await store.replaceProfile(sql, consumerId, id, p.name, p.config, now)
  if (!row) throw new AppError('NOT_FOUND')
  return profileView(row)
}

export async function deleteProfile(sql: Sql, consumerId: string, id: string) {
  if (!(await store.deleteProfile(sql, consumerId, id))) throw new AppError('NOT_FOUND')
  return { id, deleted: true as const }
}
