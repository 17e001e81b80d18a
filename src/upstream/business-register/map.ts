/**
 * From the register's shapes to ours. Pure functions over a RawResponse; anything that is not the
 * documented format throws MalformedUpstream. Tolerance follows what the live API is known to do:
 * optional fields are usually omitted, dates may be `""`, address lines may be `null` or `""`,
 * flags sometimes arrive as the strings "true"/"false" (Fullmakttjenesten), and a missing flag is
 * unknown (null) — never false.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import { MalformedUpstream, parseJson, type RawResponse } from '../raw.ts'

type Obj = Record<string, unknown>

export interface Coded {
  code: string
  description: string | null
}

export interface Address {
  lines: string[]
  postal_code: string | null
  city: string | null
  municipality_number: string | null
  municipality: string | null
  country_code: string | null
  country: string | null
}

export interface RegisterUnit {
  org_number: string
  name: string
  org_form: Coded
  /** `deleted`: the register answered SlettetEnhet; most fields are then unknown */
  status: 'active' | 'deleted'
  deleted_date: LocalDate | null
  registered_date: LocalDate | null
  founded_date: LocalDate | null
  business_address: Address | null
  postal_address: Address | null
  nace: Coded[]
  sector: Coded | null
  /** absent in the register when 0–4 employees (API v2) */
  employees: number | null
  has_registered_employees: boolean | null
  bankrupt: boolean | null
  bankrupt_date: LocalDate | null
  under_dissolution: boolean | null
  under_dissolution_date: LocalDate | null
  under_forced_dissolution: boolean | null
  /** the first of the register's forced-dissolution dates that is set */
  forced_dissolution_date: LocalDate | null
  vat_registered: boolean | null
  vat_registered_date: LocalDate | null
  voluntary_vat: string[]
  in_enterprise_register: boolean | null
  enterprise_registered_date: LocalDate | null
  /** `sisteInnsendteAarsregnskap`, a string year in the register */
  last_accounts_year: number | null
  parent_org_number: string | null
  home_country_registration: string | null
  capital: { amount: number; currency: string | null; type: string | null } | null
  website: string | null
}

export type UnitLookup =
  | { kind: 'found'; unit: RegisterUnit }
  /** removed from open data for legal reasons: purge every cached copy */
  | { kind: 'removed'; org_number: string; deleted_date: LocalDate | null }
  | { kind: 'unknown' }

function fail(raw: RawResponse, reason: string): never {
  throw new MalformedUpstream(raw.system, reason)
}

function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null
}

function flag(v: unknown): boolean | null {
  if (v === true || v === 'true') return true
  if (v === false || v === 'false') return false
  return null
}

function date(v: unknown): LocalDate | null {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null
}

function coded(v: unknown): Coded | null {
  const o = obj(v)
  const code = str(o?.kode)
  return code ? { code, description: str(o?.beskrivelse) } : null
}

function address(v: unknown): Address | null {
  const o = obj(v)
  if (!o) return null
  const lines = Array.isArray(o.adresse)
    ? o.adresse.filter((l): l is string => typeof l === 'string' && l.trim() !== '')
    : []
  return {
    lines,
    postal_code: str(o.postnummer),
    city: str(o.poststed),
    municipality_number: str(o.kommunenummer),
    municipality: str(o.kommune),
    country_code: str(o.landkode),
    country: str(o.land),
  }
}

function body(raw: RawResponse): Obj {
  const o = obj(parseJson(raw))
  if (!o) fail(raw, `expected a JSON object (HTTP ${raw.status})`)
  return o
}

function orgNumberOf(raw: RawResponse, o: Obj): string {
  const n = o.organisasjonsnummer
  if (typeof n !== 'string' || !/^\d{9}$/.test(n)) fail(raw, 'organisasjonsnummer missing or not nine digits')
  return n
}

function nameOf(raw: RawResponse, o: Obj): string {
  const n = str(o.navn)
  if (!n) fail(raw, 'navn missing')
  return n
}

function orgFormOf(raw: RawResponse, o: Obj): Coded {
  const c = coded(o.organisasjonsform)
  if (!c) fail(raw, 'organisasjonsform.kode missing')
  return c
}

const EMPTY_UNIT = {
  registered_date: null,
  founded_date: null,
  business_address: null,
  postal_address: null,
  nace: [],
  sector: null,
  employees: null,
  has_registered_employees: null,
  bankrupt: null,
  bankrupt_date: null,
  under_dissolution: null,
  under_dissolution_date: null,
  under_forced_dissolution: null,
  forced_dissolution_date: null,
  vat_registered: null,
  vat_registered_date: null,
  voluntary_vat: [],
  in_enterprise_register: null,
  enterprise_registered_date: null,
  last_accounts_year: null,
  parent_org_number: null,
  home_country_registration: null,
  capital: null,
  website: null,
} satisfies Omit<RegisterUnit, 'org_number' | 'name' | 'org_form' | 'status' | 'deleted_date'>

/** An Enhet (or SlettetEnhet) object, also as it appears inside a search page. */
export function unitFromObject(raw: RawResponse, o: Obj): RegisterUnit {
  const org_number = orgNumberOf(raw, o)
  const name = nameOf(raw, o)
  const org_form = orgFormOf(raw, o)
  // The presence of `slettedato` is the safest discriminator of a deleted unit (upstreams.md §1.3).
  if (o.respons_klasse === 'SlettetEnhet' || date(o.slettedato)) {
    return { org_number, name, org_form, status: 'deleted', deleted_date: date(o.slettedato), ...EMPTY_UNIT }
  }
  const employees =
    typeof o.antallAnsatte === 'number' && Number.isInteger(o.antallAnsatte) && o.antallAnsatte >= 0
      ? o.antallAnsatte
      : null
  const year =
    typeof o.sisteInnsendteAarsregnskap === 'string' && /^\d{4}$/.test(o.sisteInnsendteAarsregnskap)
      ? Number(o.sisteInnsendteAarsregnskap)
      : null
  const kapital = obj(o.kapital)
  const capitalAmount = kapital && typeof kapital.belop === 'number' ? kapital.belop : null
  const forced = [
    o.tvangsavvikletPgaManglendeSlettingDato,
    o.tvangsopplostPgaManglendeDagligLederDato,
    o.tvangsopplostPgaManglendeRevisorDato,
    o.tvangsopplostPgaManglendeRegnskapDato,
    o.tvangsopplostPgaMangelfulltStyreDato,
  ]
    .map(date)
    .filter((d): d is string => d !== null)
    .sort()
  return {
    org_number,
    name,
    org_form,
    status: 'active',
    deleted_date: null,
    registered_date: date(o.registreringsdatoEnhetsregisteret),
    founded_date: date(o.stiftelsesdato),
    business_address: address(o.forretningsadresse),
    postal_address: address(o.postadresse),
    nace: [o.naeringskode1, o.naeringskode2, o.naeringskode3].map(coded).filter((c): c is Coded => c !== null),
    sector: coded(o.institusjonellSektorkode),
    employees,
    has_registered_employees: flag(o.harRegistrertAntallAnsatte),
    bankrupt: flag(o.konkurs),
    bankrupt_date: date(o.konkursdato),
    under_dissolution: flag(o.underAvvikling),
    under_dissolution_date: date(o.underAvviklingDato),
    under_forced_dissolution: flag(o.underTvangsavviklingEllerTvangsopplosning),
    forced_dissolution_date: forced[0] ?? null,
    vat_registered: flag(o.registrertIMvaregisteret),
    vat_registered_date:
      date(o.registreringsdatoMerverdiavgiftsregisteret) ??
      date(o.registreringsdatoMerverdiavgiftsregisteretEnhetsregisteret),
    voluntary_vat: Array.isArray(o.frivilligMvaRegistrertBeskrivelser)
      ? o.frivilligMvaRegistrertBeskrivelser.filter((s): s is string => typeof s === 'string')
      : [],
    in_enterprise_register: flag(o.registrertIForetaksregisteret),
    enterprise_registered_date: date(o.registreringsdatoForetaksregisteret),
    last_accounts_year: year,
    parent_org_number:
      typeof o.overordnetEnhet === 'string' && /^\d{9}$/.test(o.overordnetEnhet) ? o.overordnetEnhet : null,
    home_country_registration: str(o.registreringsnummerIHjemlandet),
    capital:
      capitalAmount === null
        ? null
        : { amount: capitalAmount, currency: str(kapital?.valuta), type: str(kapital?.type) },
    website: str(o.hjemmeside),
  }
}

/** `GET /enheter/{orgnr}`: 200 live or SlettetEnhet, 410 removed, 404 unknown (empty body). */
/**
 * A lookup by number that is not a 200: 404 unknown, 410 removed (the body names the deletion date;
 * an empty or odd body still means "removed": the status code is the instruction); null for a 200.
 */
function notFound(
  raw: RawResponse,
  requested: string,
): { kind: 'unknown' } | { kind: 'removed'; org_number: string; deleted_date: LocalDate | null } | null {
  if (raw.status === 404) return { kind: 'unknown' }
  if (raw.status === 410) {
    let deleted: LocalDate | null = null
    try {
      deleted = date(obj(JSON.parse(raw.body))?.slettedato)
    } catch {
      // the status code is the instruction
    }
    return { kind: 'removed', org_number: requested, deleted_date: deleted }
  }
  if (raw.status !== 200) fail(raw, `unexpected HTTP ${raw.status}`)
  return null
}

export function mapUnit(raw: RawResponse, requested: string): UnitLookup {
  const gone = notFound(raw, requested)
  if (gone) return gone
  const unit = unitFromObject(raw, body(raw))
  if (unit.org_number !== requested) fail(raw, `answered for ${unit.org_number}, asked for ${requested}`)
  return { kind: 'found', unit }
}

// -- sub-units (underenheter) -----------------------------------------------------------------------

/**
 * A sub-unit: the branch, shop or site of a legal entity (organisation form BEDR, or AAFY for a
 * sub-unit of a unit outside business life). It has its own number, name and address but no
 * obligations, roles or accounts of its own: those are its parent's (`overordnetEnhet`).
 */
export interface RegisterSubUnit {
  org_number: string
  name: string
  org_form: Coded
  /** `deleted`: the register answered the deleted stub (`SlettetUnderEnhet`, `slettedato`); most fields are then unknown */
  status: 'active' | 'deleted'
  /** the legal entity it belongs to; null on a deleted sub-unit, whose stub no longer names it */
  parent_org_number: string | null
  location_address: Address | null
  postal_address: Address | null
  nace: Coded[]
  employees: number | null
  has_registered_employees: boolean | null
  vat_registered: boolean | null
  registered_date: LocalDate | null
  /** `oppstartsdato` */
  started_date: LocalDate | null
  /** `datoEierskifte`: when it last changed hands (to its present parent) */
  owner_change_date: LocalDate | null
  /** `nedleggelsesdato`: activity ended (the sub-unit may still be registered) */
  closed_date: LocalDate | null
  /** `slettedato` */
  deleted_date: LocalDate | null
}

export type SubUnitLookup =
  | { kind: 'found'; sub_unit: RegisterSubUnit }
  /** removed from open data for legal reasons: purge every cached copy */
  | { kind: 'removed'; org_number: string; deleted_date: LocalDate | null }
  | { kind: 'unknown' }

const orgNumberOrNull = (v: unknown) => (typeof v === 'string' && /^\d{9}$/.test(v) ? v : null)

/** An Underenhet (or its deleted stub) object. */
export function subUnitFromObject(raw: RawResponse, o: Obj): RegisterSubUnit {
  const org_number = orgNumberOf(raw, o)
  const name = nameOf(raw, o)
  const org_form = orgFormOf(raw, o)
  const deleted =
    o.respons_klasse === 'SlettetUnderEnhet' ||
    o.respons_klasse === 'SlettetUnderenhet' ||
    o.respons_klasse === 'SlettetEnhet' ||
    date(o.slettedato) !== null
  const employees =
    typeof o.antallAnsatte === 'number' && Number.isInteger(o.antallAnsatte) && o.antallAnsatte >= 0
      ? o.antallAnsatte
      : null
  return {
    org_number,
    name,
    org_form,
    status: deleted ? 'deleted' : 'active',
    parent_org_number: orgNumberOrNull(o.overordnetEnhet),
    location_address: address(o.beliggenhetsadresse),
    postal_address: address(o.postadresse),
    nace: [o.naeringskode1, o.naeringskode2, o.naeringskode3].map(coded).filter((c): c is Coded => c !== null),
    employees,
    has_registered_employees: flag(o.harRegistrertAntallAnsatte),
    vat_registered: flag(o.registrertIMvaregisteret),
    registered_date: date(o.registreringsdatoEnhetsregisteret),
    started_date: date(o.oppstartsdato),
    owner_change_date: date(o.datoEierskifte),
    closed_date: date(o.nedleggelsesdato),
    deleted_date: date(o.slettedato),
  }
}

/** `GET /underenheter/{orgnr}`: 200 Underenhet or its deleted stub, 410 removed, 404 unknown (empty body). */
export function mapSubUnit(raw: RawResponse, requested: string): SubUnitLookup {
  const gone = notFound(raw, requested)
  if (gone) return gone
  const sub = subUnitFromObject(raw, body(raw))
  if (sub.org_number !== requested) fail(raw, `answered for ${sub.org_number}, asked for ${requested}`)
  return { kind: 'found', sub_unit: sub }
}

export interface SearchPage {
  units: RegisterUnit[]
  total: number
}

/** HAL search page; `_embedded` is absent when nothing matched. */
export function mapSearch(raw: RawResponse): SearchPage {
  if (raw.status !== 200) fail(raw, `unexpected HTTP ${raw.status}`)
  const o = body(raw)
  const page = obj(o.page)
  const embedded = obj(o._embedded)
  const list = embedded?.enheter
  if (embedded && !Array.isArray(list)) fail(raw, '_embedded.enheter is not an array')
  const units = Array.isArray(list)
    ? list.map((u) => unitFromObject(raw, obj(u) ?? fail(raw, 'search hit is not an object')))
    : []
  const total = typeof page?.totalElements === 'number' ? page.totalElements : units.length
  return { units, total }
}

// -- roles ----------------------------------------------------------------------------------------

export type RoleHolder =
  | { kind: 'person'; name: string; birth_date: LocalDate | null; deceased: boolean | null }
  | { kind: 'entity'; org_number: string | null; name: string; deleted: boolean | null }

export interface Role {
  group: Coded
  role: Coded
  holder: RoleHolder
  /** e.g. "50%" for partners with proportionate liability */
  liability_share: string | null
  elected_by: Coded | null
  order: number | null
}

export interface RolesLookup {
  found: boolean
  roles: Role[]
}

function personName(v: unknown): string | null {
  const n = obj(v)
  if (!n) return str(v)
  return [str(n.fornavn), str(n.mellomnavn), str(n.etternavn)].filter(Boolean).join(' ') || null
}

/**
 * `GET /enheter/{orgnr}/roller`. Roles that have resigned (`fratraadt`) or been deregistered are
 * not current and are left out. A role names a person or an entity, never both; an entity's name
 * is an array of lines.
 */
export function mapRoles(raw: RawResponse): RolesLookup {
  if (raw.status === 404 || raw.status === 410) return { found: false, roles: [] }
  if (raw.status !== 200) fail(raw, `unexpected HTTP ${raw.status}`)
  const o = body(raw)
  if (!Array.isArray(o.rollegrupper)) fail(raw, 'rollegrupper is not an array')
  const roles: Role[] = []
  for (const g of o.rollegrupper) {
    const group = obj(g)
    const groupType = coded(group?.type)
    if (!group || !groupType || !Array.isArray(group.roller)) fail(raw, 'rollegruppe without type or roller')
    for (const r of group.roller) {
      const role = obj(r)
      const type = coded(role?.type)
      if (!role || !type) fail(raw, 'rolle without type')
      if (role.fratraadt === true || role.avregistrert === true) continue
      const person = obj(role.person)
      const entity = obj(role.enhet)
      let holder: RoleHolder
      if (person) {
        holder = {
          kind: 'person',
          name: personName(person.navn) ?? fail(raw, 'person without navn'),
          birth_date: date(person.fodselsdato),
          deceased: flag(person.erDoed),
        }
      } else if (entity) {
        const lines = Array.isArray(entity.navn)
          ? entity.navn.filter((l): l is string => typeof l === 'string')
          : [str(entity.navn) ?? '']
        holder = {
          kind: 'entity',
          org_number: typeof entity.organisasjonsnummer === 'string' ? entity.organisasjonsnummer : null,
          name: lines.join(' ').trim() || fail(raw, 'enhet without navn'),
          deleted: flag(entity.erSlettet),
        }
      } else {
        fail(raw, 'rolle with neither person nor enhet')
      }
      roles.push({
        group: groupType,
        role: type,
        holder,
        liability_share: str(role.ansvarsandel),
        elected_by: coded(role.valgtAv),
        order: typeof role.rekkefolge === 'number' ? role.rekkefolge : null,
      })
    }
  }
  return { found: true, roles }
}

// -- signature and procuration (Fullmakttjenesten) ---------------------------------------------------

export interface AuthorityPerson {
  name: string
  birth_date: LocalDate | null
  role: Coded | null
}

export interface AuthorityCombination {
  id: string
  /** a rule id such as `R0012` or a role-group code such as `STYR` */
  code: string | null
  description: string | null
  persons: AuthorityPerson[]
}

export interface AuthorityLookup {
  found: boolean
  /** `OK`, or `NA` when the service does not cover the organisation form */
  routine_status: string | null
  routine_text: string | null
  /** `OK`, or `IK` when no combination is available */
  combination_status: string | null
  /** `RF` a coded rule was found; `RI` only free text */
  rule_status: string | null
  rule_id: string | null
  basis_code: string | null
  free_text: string | null
  /** people who hold a signing role at all (not each sufficient alone) */
  possible_holders: AuthorityPerson[]
  /** each combination is one sufficient set of signers: OR across, AND within */
  combinations: AuthorityCombination[]
}

/** `dd.MM.yyyy` → `yyyy-MM-dd` */
function dottedDate(v: unknown): LocalDate | null {
  if (typeof v !== 'string') return null
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(v)
  return m ? `${m[3]}-${m[2]}-${m[1]}` : date(v)
}

function authorityPerson(raw: RawResponse, v: unknown): AuthorityPerson {
  const p = obj(v) ?? fail(raw, 'person is not an object')
  const rolle = obj(p.rolle)
  const code = str(rolle?.kode)
  return {
    name: personName(p.navn) ?? fail(raw, 'person without navn'),
    birth_date: dottedDate(p.fodselsdato),
    role: code ? { code, description: str(rolle?.tekstforklaring) } : null,
  }
}

function people(raw: RawResponse, v: unknown): AuthorityPerson[] {
  return Array.isArray(v) ? v.map((p) => authorityPerson(raw, p)) : []
}

function statusCode(v: unknown): string | null {
  return str(obj(v)?.kode)
}

/** `GET /fullmakt/enheter/{orgnr}/signatur` and `/prokura` share one shape. */
export function mapAuthority(raw: RawResponse): AuthorityLookup {
  if (raw.status === 404 || raw.status === 410) {
    return {
      found: false,
      routine_status: null,
      routine_text: null,
      combination_status: null,
      rule_status: null,
      rule_id: null,
      basis_code: null,
      free_text: null,
      possible_holders: [],
      combinations: [],
    }
  }
  if (raw.status !== 200) fail(raw, `unexpected HTTP ${raw.status}`)
  const o = body(raw)
  const status = obj(o.status) ?? fail(raw, 'status missing')
  const grunnlag = obj(o.signeringsGrunnlag)
  const roller = obj(grunnlag?.signaturProkuraRoller)
  const mulige = obj(grunnlag?.muligeSigneringsRoller)
  const kombinasjon = obj(o.signeringsKombinasjon)?.kombinasjon
  if (kombinasjon !== undefined && kombinasjon !== null && !Array.isArray(kombinasjon))
    fail(raw, 'signeringsKombinasjon.kombinasjon is not an array')
  const combinations = (Array.isArray(kombinasjon) ? kombinasjon : []).map((k, i): AuthorityCombination => {
    const c = obj(k) ?? fail(raw, 'kombinasjon is not an object')
    return {
      id: str(c.kombinasjonsId) ?? String(i + 1),
      code: str(c.kode),
      description: str(c.tekstforklaring),
      persons: people(raw, c.personRolleKombinasjon),
    }
  })
  const holders = [...people(raw, mulige?.personRolleGrunnlag), ...people(raw, roller?.personRolleGrunnlag)]
  const seen = new Set<string>()
  return {
    found: true,
    routine_status: statusCode(status.rutineStatus),
    routine_text: str(obj(status.rutineStatus)?.tekstforklaring),
    combination_status: statusCode(status.kombinasjonStatus),
    rule_status: statusCode(status.regelStatus),
    rule_id: str(obj(status.regelStatus)?.regelIdent),
    basis_code: str(grunnlag?.kode),
    free_text: str(roller?.signaturProkuraFritekst),
    possible_holders: holders.filter((p) => {
      const key = `${p.name}|${p.birth_date}|${p.role?.code}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    }),
    combinations,
  }
}

// -- update feed ----------------------------------------------------------------------------------

export interface UnitUpdate {
  id: number
  at: string
  org_number: string
  /** Ny, Endring, Sletting, Fjernet (purge copies), Ukjent */
  change: string
}

/**
 * One page of an update feed: the units' (`_embedded.oppdaterteEnheter`) or, with `subUnits`, the
 * sub-units' (`_embedded.oppdaterteUnderenheter`); the two feeds are otherwise alike.
 */
export function mapUpdates(raw: RawResponse, subUnits = false): UnitUpdate[] {
  if (raw.status !== 200) fail(raw, `unexpected HTTP ${raw.status}`)
  const o = body(raw)
  const key = subUnits ? 'oppdaterteUnderenheter' : 'oppdaterteEnheter'
  const list = obj(o._embedded)?.[key]
  if (list === undefined) return []
  if (!Array.isArray(list)) fail(raw, `_embedded.${key} is not an array`)
  return list.map((u) => {
    const e = obj(u) ?? fail(raw, 'update is not an object')
    if (typeof e.oppdateringsid !== 'number' || typeof e.organisasjonsnummer !== 'string')
      fail(raw, 'update without oppdateringsid or organisasjonsnummer')
    return {
      id: e.oppdateringsid,
      at: str(e.dato) ?? '',
      org_number: e.organisasjonsnummer,
      change: str(e.endringstype) ?? 'Ukjent',
    }
  })
}
