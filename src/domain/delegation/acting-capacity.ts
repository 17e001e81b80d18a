/**
 * Acting capacity: which roles a person holds in an organisation, as the business register shows
 * them, and what the law lets each role (and the registered signature rule) do for it.
 *
 * The caller names the person by fødselsnummer, but the open register never shows one: its roles
 * carry the holder's name and birth date. So the number is checked (both control digits), HMAC'd
 * with the server's fnr key and reduced to the birth date it encodes (D-number and synthetic
 * offsets undone) in `sealFnr`, the first thing the handler does with it; the clear value goes no
 * further. A role holder matches when their birth date is that date. Two holders born the same day
 * both match: every match is returned, each role and action naming its holder, with a note. A
 * match is a register fact, not proof that the caller is that person.
 */
import { createHmac } from 'node:crypto'
import { AppError, validationError } from '../../errors/app-error.ts'
import { birthDateOf, isIdentityNumber, sameBirthDate, type EncodedBirthDate } from '../../lib/fnr.ts'
import type { Sql } from '../../store/db.ts'
import { appendAudit } from '../../store/audit.ts'
import type { AuthorityLookup, Role } from '../../upstream/business-register/map.ts'
import { attempt, type CompanyReads, type Provenance } from '../sources.ts'
import { requireUnit, subUnitOf, type SubUnitBlock } from '../company/register.ts'

/** What is left of an fnr once it has been checked: its HMAC and the birth date it encodes. */
export interface SealedFnr {
  /** HMAC-SHA-256 of the eleven digits under the server's fnr key, lowercase hex */
  hmac: string
  /** null: the number encodes no birth date (a help number), so no role holder can match */
  birth: EncodedBirthDate | null
}

export const FNR_HMAC_ALGORITHM = 'HMAC-SHA256'

/**
 * Checks an fnr and seals it. An invalid one is refused naming the field only: the value is never
 * part of an error, a log line or an answer.
 */
export function sealFnr(fnr: string, key: Buffer): SealedFnr {
  if (!isIdentityNumber(fnr)) {
    throw validationError([
      { field: 'fnr', message: 'must be 11 digits whose two control digits are valid (fødselsnummer or D-number)' },
    ])
  }
  return { hmac: createHmac('sha256', key).update(fnr, 'utf8').digest('hex'), birth: birthDateOf(fnr) }
}

interface ActionRule {
  token: string
  description: string
  description_en: string
  /** the statute, by organisation form; a form missing here gets no action from the role */
  legal: Record<string, string>
}

const BOARD: ActionRule = {
  token: 'sign_with_the_whole_board',
  description:
    'Representere selskapet og tegne firma sammen med hele styret; alene bare etter en registrert signaturregel.',
  description_en:
    'Represent the company and sign for it together with the whole board; alone only under a registered signature rule.',
  legal: { AS: 'asl. § 6-30 (1)', ASA: 'asal. § 6-30 (1)', ANS: 'sel. § 2-21 (2)', DA: 'sel. § 2-21 (2)' },
}

/** What each role of the spec's vocabulary may do, by statute. Other roles are listed, not interpreted. */
export const ROLE_ACTIONS: Record<string, ActionRule> = {
  DAGL: {
    token: 'act_in_daily_management',
    description:
      'Representere selskapet i saker som hører til den daglige ledelsen, blant annet rutinemessige innsendinger som mva-melding og a-melding. Saker av uvanlig art eller stor betydning hører under styret.',
    description_en:
      'Represent the company in matters of daily management, routine filings such as the VAT return and the a-melding among them; matters of an unusual kind or great importance belong to the board.',
    legal: {
      AS: 'asl. §§ 6-14, 6-32 (1)',
      ASA: 'asal. §§ 6-14, 6-32 (1)',
      ANS: 'sel. § 2-21 (3)',
      DA: 'sel. § 2-21 (3)',
    },
  },
  LEDE: BOARD,
  // the deputy chair: NEST, the register's code, as authority, verify and profile give it (the spec's acting-capacity list writes NESTL)
  NEST: BOARD,
  MEDL: BOARD,
  INNH: {
    token: 'act_as_owner',
    description:
      'Handle for foretaket i eget navn: et enkeltpersonforetak er innehaveren selv, som leverer foretakets skattemelding og mva-melding.',
    description_en:
      'Act for the business in their own name: a sole proprietorship is its owner, who files its tax return and VAT return personally.',
    legal: { ENK: 'sktfvl. §§ 8-2, 8-3' },
  },
  REGN: {
    token: 'prepare_filings_on_assignment',
    description:
      'Føre regnskapet og utarbeide oppgavene selskapet skal levere, etter oppdragsavtale. Å sende dem inn på selskapets vegne krever delegering i Altinn.',
    description_en:
      'Keep the accounts and prepare the returns the company must give, under an engagement; filing them on its behalf needs a delegation in Altinn.',
    legal: Object.fromEntries(
      ['AS', 'ASA', 'ENK', 'ANS', 'DA', 'NUF'].map((f) => [f, 'regnskapsførerloven (LOV-2022-12-16-90) §§ 1-1, 1-2']),
    ),
  },
  REVI: {
    token: 'audit_annual_accounts',
    description: 'Revidere årsregnskapet. Gir ingen rett til å signere eller sende inn for selskapet.',
    description_en: 'Audit the annual accounts; gives no right to sign or file for the company.',
    legal: Object.fromEntries(
      ['AS', 'ASA', 'ENK', 'ANS', 'DA', 'NUF'].map((f) => [f, 'revl. (LOV-2020-11-20-128) § 2-1']),
    ),
  },
}

/** A registered signature binds the company towards anyone (foretaksregisterloven § 10-1); in AS and ASA the board grants it. */
function signatureReference(form: string): string {
  if (form === 'AS') return 'asl. § 6-31; foretaksregisterloven § 10-1'
  if (form === 'ASA') return 'asal. § 6-31; foretaksregisterloven § 10-1'
  return 'foretaksregisterloven § 10-1'
}

export interface RoleEntry {
  /** the role code, the register's own (the deputy chair is NEST, as on every other route) */
  code: string
  /** the code as the register gives it */
  register_code: string
  description: string | null
  group_code: string
  holder_name: string
  elected_by: string | null
}

export interface ActionEntry {
  token: string
  holder_name: string
  /** what gives the action: a role (by its spec code) or the registered signature rule */
  basis:
    | { kind: 'role'; role_code: string }
    | { kind: 'signature_rule'; combinations: number; co_signers_required: number }
  description: string
  description_en: string
  legal_reference: string
}

function roleActions(role: RoleEntry, form: string): ActionEntry[] {
  const rule = ROLE_ACTIONS[role.code]
  const legal = rule?.legal[form]
  if (!rule || !legal) return []
  return [
    {
      token: rule.token,
      holder_name: role.holder_name,
      basis: { kind: 'role', role_code: role.code },
      description: rule.description,
      description_en: rule.description_en,
      legal_reference: legal,
    },
  ]
}

/** The signature rule's actions for one matched person: alone if some combination is them alone, else jointly with the fewest others. */
function signatureActions(lookup: AuthorityLookup, birth: EncodedBirthDate, form: string): ActionEntry[] {
  const byHolder = new Map<string, number[]>()
  for (const c of lookup.combinations) {
    const mine = c.persons.filter((p) => p.birth_date !== null && sameBirthDate(birth, p.birth_date))
    for (const p of mine) byHolder.set(p.name, [...(byHolder.get(p.name) ?? []), c.persons.length - 1])
  }
  return [...byHolder].map(([name, others]) => {
    const fewest = Math.min(...others)
    const alone = fewest === 0
    return {
      token: alone ? 'sign_alone' : 'sign_jointly',
      holder_name: name,
      basis: { kind: 'signature_rule', combinations: others.length, co_signers_required: fewest },
      description: alone
        ? 'Signere for selskapet alene etter den registrerte signaturregelen.'
        : `Signere for selskapet sammen med ${fewest === 1 ? 'én annen' : `${fewest} andre`} etter den registrerte signaturregelen.`,
      description_en: alone
        ? 'Sign for the company alone under the registered signature rule.'
        : `Sign for the company together with ${fewest === 1 ? 'one other person' : `${fewest} other people`} under the registered signature rule.`,
      legal_reference: signatureReference(form),
    }
  })
}

function roleEntry(r: Role & { holder: { kind: 'person' } }): RoleEntry {
  return {
    code: r.role.code,
    register_code: r.role.code,
    description: r.role.description,
    group_code: r.group.code,
    holder_name: r.holder.name,
    elected_by: r.elected_by?.code ?? null,
  }
}

const isPerson = (r: Role): r is Role & { holder: { kind: 'person'; name: string; birth_date: string | null } } =>
  r.holder.kind === 'person'

function matchingNote(birth: EncodedBirthDate | null, persons: number): { note: string; note_en: string } {
  if (birth === null) {
    return {
      note: 'Nummeret angir ingen fødselsdato (for eksempel et hjelpenummer), så det kan ikke knyttes til noen rolleinnehaver i registeret.',
      note_en:
        'The number encodes no birth date (a help number, for instance), so it cannot be matched to any role holder in the register.',
    }
  }
  if (persons === 0) {
    return {
      note: 'Ingen rolleinnehaver i registeret har fødselsdatoen nummeret angir. Personen har ingen registrert rolle i organisasjonen.',
      note_en:
        'No role holder in the register has the birth date the number encodes: the person holds no registered role in the organisation.',
    }
  }
  if (persons > 1) {
    return {
      note: `${persons} rolleinnehavere har samme fødselsdato. Registeret viser ikke fødselsnummer, så alle er tatt med; hver rolle og handling oppgir navnet. Bekreft hvem personen er.`,
      note_en: `${persons} role holders share the birth date. The register shows no identity numbers, so all of them are returned, each role and action naming its holder. Confirm who the person is.`,
    }
  }
  return {
    note: 'Registeret viser fødselsdato og navn, ikke fødselsnummer: rolleinnehaveren med fødselsdatoen nummeret angir er tatt med. Bekreft navnet.',
    note_en:
      'The register shows birth date and name, not identity numbers: the role holder with the birth date the number encodes is returned. Confirm the name.',
  }
}

export interface ActingCapacity {
  data: ReturnType<typeof capacityData> & { sub_unit?: SubUnitBlock }
  sources: Provenance[]
}

function capacityData(
  unit: { org_number: string; name: string; org_form: string },
  fnr: SealedFnr,
  persons: number,
  roles: RoleEntry[],
  actions: ActionEntry[],
  signature: AuthorityLookup | AppError,
) {
  return {
    org_number: unit.org_number,
    name: unit.name,
    org_form: unit.org_form,
    actor: { fnr_hmac: fnr.hmac, fnr_hmac_algorithm: FNR_HMAC_ALGORITHM },
    matching: {
      basis: 'birth_date' as const,
      persons_matched: persons,
      ambiguous: persons > 1,
      ...matchingNote(fnr.birth, persons),
    },
    roles,
    actions,
    signing_rule:
      signature instanceof AppError
        ? { available: false, covered: null, descriptions: [], free_text: null, error_code: signature.code }
        : {
            available: true,
            covered: signature.found && signature.routine_status !== 'NA',
            descriptions: [
              ...new Set(signature.combinations.map((c) => c.description).filter((d): d is string => d !== null)),
            ],
            free_text: signature.free_text,
            error_code: null,
          },
    notice:
      'Utledet fra Brønnøysundregistrene og loven, ingen juridisk vurdering. En rolle gir ikke Plikt rett til å sende inn: det krever selskapets fullmakt og en persons godkjenning.',
    notice_en:
      'Derived from the Brønnøysund registers and the statutes; not a legal opinion. A role never lets Plikt file: that needs the company’s delegation and a person’s approval.',
  }
}

/** The person's roles in the organisation and what they may do; the register's roles must be readable, the signature rule may degrade. */
export async function actingCapacity(sources: CompanyReads, org: string, fnr: SealedFnr): Promise<ActingCapacity> {
  const unit = await requireUnit(sources, org)
  // A sub-unit's number: the roles are its legal entity's (a sub-unit has none), named in `sub_unit`.
  const entity = unit.value.org_number
  // (read together; the signature rule's provenance follows the roles' as before)
  const signatureUsed: Provenance[] = []
  const [roles, signature] = await Promise.all([
    sources.roles(entity),
    attempt(() => sources.signature(entity), signatureUsed),
  ])
  const used: Provenance[] = [...unit.sources, roles.source, ...signatureUsed]
  const form = unit.value.org_form.code
  const birth = fnr.birth
  const matched =
    birth === null
      ? []
      : roles.value.roles
          .filter(isPerson)
          .filter((r) => r.holder.birth_date !== null && sameBirthDate(birth, r.holder.birth_date))
  const entries = matched.map(roleEntry)
  const persons = new Set(matched.map((r) => `${r.holder.name}|${r.holder.birth_date}`)).size
  const actions = [
    ...entries.flatMap((r) => roleActions(r, form)),
    ...(birth !== null && !(signature instanceof AppError) ? signatureActions(signature, birth, form) : []),
  ]
  return {
    data: {
      ...capacityData(
        { org_number: unit.value.org_number, name: unit.value.name, org_form: form },
        fnr,
        persons,
        entries,
        actions,
        signature,
      ),
      ...subUnitOf(unit),
    },
    sources: used,
  }
}

/** Who looked up whose capacity, for the account's audit trail: the person only as the HMAC. */
export async function auditActingCapacity(
  sql: Sql,
  by: { consumerId: string; actor: string; correlationId: string },
  org: string,
  result: ActingCapacity['data'],
): Promise<void> {
  await appendAudit(sql, {
    consumerId: by.consumerId,
    actor: by.actor,
    action: 'acting_capacity_listed',
    orgNumber: org,
    correlationId: by.correlationId,
    details: {
      fnr_hmac: result.actor.fnr_hmac,
      persons_matched: result.matching.persons_matched,
      roles: result.roles.length,
    },
  })
}
