/**
 * The sandbox's valid series (spec: Sandbox knobs) and the synthetic company behind every number of
 * them that has no hand-written fixture. The company is drawn from a hash of the number, so the same
 * number always gives the same company, in every process; it has the fixtures' shape, so the same
 * domain code (register mapping, rulebook, authority, accounts, dry-run checks) answers for it.
 *
 * What is drawn hangs together the way a register would show it: an ENK has one holder who signs
 * alone and whose surname is in the firm's name; an AS has a general manager, a board whose members
 * make up its signing combinations, a share capital and 2024 accounts whose figures agree with the
 * Tier 2 figures; turnover over NOK 50,000 means VAT registration, and only a VAT-registered
 * business under NOK 1 million is on the annual term. Tier 2 figures exist exactly when the company
 * has delegated to Plikt (a system user holding every scope). Every synthetic company is active:
 * the other states are the named magic scenarios.
 */
import { createHash } from 'node:crypto'
import { ymd, type LocalDate } from '../../lib/local-date.ts'
import { ALL_SCOPES, TIER_2_ORDINARY, type SandboxCompany, type Signer } from '../../../fixtures/sandbox/companies.ts'

/** The valid series: a nine-digit number starting with one of these is a sandbox organisation. */
export const SANDBOX_SERIES = ['818', '99966', '99977', '999000002'] as const

export function inSandboxSeries(org: string): boolean {
  return /^\d{9}$/.test(org) && SANDBOX_SERIES.some((prefix) => org.startsWith(prefix))
}

/** Deterministic draws from SHA-256 blocks of the number: no state outside the instance. */
class Draws {
  private block = Buffer.alloc(0)
  private offset = 0
  private counter = 0

  constructor(private readonly seed: string) {}

  private word(): number {
    if (this.offset + 4 > this.block.length) {
      this.block = createHash('sha256')
        .update(`plikt-sandbox|${this.seed}|${this.counter++}`)
        .digest()
      this.offset = 0
    }
    const w = this.block.readUInt32BE(this.offset)
    this.offset += 4
    return w
  }

  /** 0 ≤ n < below */
  int(below: number): number {
    return this.word() % below
  }

  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }

  /** a fraction in [lo, hi) */
  fraction(lo: number, hi: number): number {
    return lo + (this.word() / 2 ** 32) * (hi - lo)
  }

  chance(p: number): boolean {
    return this.word() / 2 ** 32 < p
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!
  }

  /** `n` distinct elements, in drawn order */
  distinct<T>(list: readonly T[], n: number): T[] {
    const rest = [...list]
    return Array.from({ length: n }, () => rest.splice(this.int(rest.length), 1)[0]!)
  }
}

const PLACES = [
  { city: 'OSLO', postal_code: '0150', municipality_number: '0301', municipality: 'OSLO' },
  { city: 'BERGEN', postal_code: '5003', municipality_number: '4601', municipality: 'BERGEN' },
  { city: 'TRONDHEIM', postal_code: '7011', municipality_number: '5001', municipality: 'TRONDHEIM' },
  { city: 'STAVANGER', postal_code: '4006', municipality_number: '1103', municipality: 'STAVANGER' },
  { city: 'KRISTIANSAND S', postal_code: '4611', municipality_number: '4204', municipality: 'KRISTIANSAND' },
  { city: 'TROMSØ', postal_code: '9008', municipality_number: '5501', municipality: 'TROMSØ' },
  { city: 'BODØ', postal_code: '8006', municipality_number: '1804', municipality: 'BODØ' },
  { city: 'DRAMMEN', postal_code: '3015', municipality_number: '3301', municipality: 'DRAMMEN' },
  { city: 'FREDRIKSTAD', postal_code: '1606', municipality_number: '3107', municipality: 'FREDRIKSTAD' },
] as const
const STREETS = ['Testveien', 'Prøvegata', 'Sandkassegaten', 'Eksempelveien', 'Øvingsgata', 'Mønsterbakken'] as const

/** Trades: the word in the firm's name, its NACE code, and operating revenue per full-time equivalent. */
const TRADES = [
  { word: 'TESTDATA', nace: ['62.010', 'Programmeringstjenester'], revenuePerFte: 1_400_000 },
  { word: 'TESTBYGG', nace: ['41.200', 'Oppføring av bygninger'], revenuePerFte: 1_800_000 },
  { word: 'TESTHANDEL', nace: ['47.789', 'Butikkhandel med andre nye varer'], revenuePerFte: 2_100_000 },
  {
    word: 'TESTKONSULT',
    nace: ['70.220', 'Bedriftsrådgivning og annen administrativ rådgivning'],
    revenuePerFte: 1_300_000,
  },
  { word: 'TESTREGNSKAP', nace: ['69.201', 'Regnskap og bokføring'], revenuePerFte: 1_000_000 },
  { word: 'TESTTRANSPORT', nace: ['49.410', 'Godstransport på vei'], revenuePerFte: 1_600_000 },
  { word: 'TESTSERVERING', nace: ['56.101', 'Drift av restauranter og kafeer'], revenuePerFte: 900_000 },
  {
    word: 'TESTDESIGN',
    nace: ['74.103', 'Interiørarkitekter, interiørdesign og interiørkonsulenter'],
    revenuePerFte: 1_000_000,
  },
  { word: 'TESTELEKTRO', nace: ['43.210', 'Elektrisk installasjonsarbeid'], revenuePerFte: 1_500_000 },
] as const
const NAME_WORDS = [
  'BJØRKELI',
  'LYNGHEIM',
  'STORMYR',
  'ELVEBREDD',
  'SKOGLI',
  'BERGTIND',
  'NORDAVIND',
  'LINDEHAUG',
  'FURULUND',
  'MOLTEMYR',
  'VIKABERG',
  'HAVBRIS',
  'SOLBAKKEN',
  'FJELLRO',
  'KLIPPEVIK',
  'TINDESTUA',
] as const

const FIRST_NAMES = [
  'Kari',
  'Ola',
  'Ingrid',
  'Lars',
  'Marit',
  'Per',
  'Silje',
  'Anders',
  'Nora',
  'Jonas',
  'Hilde',
  'Eirik',
  'Ragnhild',
  'Tor',
  'Sigrid',
  'Magnus',
] as const
const SURNAMES = [
  'Testesen',
  'Prøvdal',
  'Prøvesen',
  'Testberg',
  'Forsøkli',
  'Eksempelsen',
  'Prøvhaug',
  'Testvik',
  'Øvingstad',
  'Mønsterud',
  'Prøvestad',
  'Sandkassen',
] as const

/** Limited companies pay 22 % tax on a profit. */
const TAX_RATE = 0.22
/** VAT registration is due over NOK 50,000 of sales; the annual term is open below NOK 1 million. */
const VAT_THRESHOLD = 50_000
const ANNUAL_TERM_CEILING = 1_000_000
const NO_DELEGATION = { system_user: false, scopes: [] }

const thousands = (n: number) => Math.round(n / 1000) * 1000

interface Person {
  name: string
  birth: LocalDate
}

function person(d: Draws, first: string, bornFrom: number, bornTo: number): Person {
  return {
    name: `${first} ${d.pick(SURNAMES)}`,
    birth: ymd(d.between(bornFrom, bornTo), d.between(1, 12), d.between(1, 28)),
  }
}

/** The first of a month one or two months after registration: when the VAT registration took effect. */
function vatDateAfter(registered: LocalDate, d: Draws): LocalDate {
  const [y, m] = registered.split('-').map(Number) as [number, number]
  const index = y * 12 + (m - 1) + d.between(1, 2)
  return ymd(Math.floor(index / 12), (index % 12) + 1, 1)
}

/**
 * The AS's signing rule, from the ones its board can carry: the chair alone, the general manager
 * alone, the chair with one board member, the chair alone or two members jointly, or the whole board.
 */
function asSigning(
  d: Draws,
  dagl: Signer,
  chair: Signer,
  members: Signer[],
): Extract<SandboxCompany['signing'], { rule: 'coded' }> {
  const rules: Extract<SandboxCompany['signing'], { rule: 'coded' }>[] = [
    { rule: 'coded', text: 'Styrets leder alene.', combinations: [[chair]] },
    { rule: 'coded', text: 'Daglig leder alene.', combinations: [[dagl]] },
  ]
  if (members.length >= 1) {
    rules.push({
      rule: 'coded',
      text: 'Styrets leder og ett styremedlem i fellesskap.',
      combinations: members.map((m) => [chair, m]),
    })
    rules.push({ rule: 'coded', text: 'Styret i fellesskap.', combinations: [[chair, ...members]] })
  }
  if (members.length >= 2)
    rules.push({
      rule: 'coded',
      text: 'Styrets leder alene eller to styremedlemmer i fellesskap.',
      combinations: [[chair], [members[0]!, members[1]!]],
    })
  return d.pick(rules)
}

function tier2(
  d: Draws,
  employees: number,
  turnover: number,
  assets: number,
  vat: boolean,
): NonNullable<SandboxCompany['tier_2']> | null {
  if (!d.chance(0.5)) return null
  return {
    employee_count: employees,
    annual_turnover_nok: turnover,
    total_assets_nok: assets,
    has_payroll: employees > 0,
    mva_annual_term: vat && turnover < ANNUAL_TERM_CEILING,
    advance_tax_assessed: true,
    ...TIER_2_ORDINARY,
    // Synthetic figures hold for every year, so the two-year rule is met whenever the figures are.
    transparency_act_size_met: [turnover > 70_000_000, assets > 35_000_000, employees > 50].filter(Boolean).length >= 2,
  }
}

const DESCRIPTION = {
  nb: 'Syntetisk selskap laget fra organisasjonsnummeret: samme nummer gir alltid de samme dataene.',
  en: 'A synthetic company generated from the organisation number: the same number always gives the same data.',
}

function limitedCompany(org: string, d: Draws): SandboxCompany {
  const trade = d.pick(TRADES)
  const place = d.pick(PLACES)
  const registered = ymd(d.between(2004, 2023), d.between(1, 12), d.between(1, 28))
  const employees = d.chance(0.2) ? 0 : d.between(1, 40)
  const revenue = thousands(Math.max(employees, 0.5) * trade.revenuePerFte * d.fraction(0.7, 1.3))
  const operating = thousands(revenue * d.fraction(0.02, 0.14))
  const assets = thousands(revenue * d.fraction(0.35, 0.9))
  const equity = Math.max(30_000, thousands(assets * d.fraction(0.2, 0.6)))
  const vat = revenue > VAT_THRESHOLD

  const boardSize = d.between(1, 3)
  const [daglFirst, chairFirst, ...memberFirsts] = d.distinct(FIRST_NAMES, 2 + boardSize)
  const dagl = person(d, daglFirst!, 1955, 1995)
  const chair = person(d, chairFirst!, 1950, 1990)
  const members = memberFirsts.slice(0, boardSize - 1).map((f) => person(d, f, 1955, 1995))
  const signing = asSigning(
    d,
    ['DAGL', dagl.name],
    ['LEDE', chair.name],
    members.map((m): Signer => ['MEDL', m.name]),
  )
  // A procurator is someone outside the board, as in the hand-written fixtures.
  const procurator =
    employees >= 5 && d.chance(0.3)
      ? person(d, d.pick(FIRST_NAMES.filter((f) => ![daglFirst, chairFirst, ...memberFirsts].includes(f))), 1960, 1995)
      : null

  const t2 = tier2(d, employees, revenue, assets, vat)
  return {
    org_number: org,
    name: `${d.pick(NAME_WORDS)} ${trade.word} AS`,
    entity_type: 'AS',
    scenario: null,
    description_nb: DESCRIPTION.nb,
    description_en: DESCRIPTION.en,
    nace: [trade.nace],
    address: { street: `${d.pick(STREETS)} ${d.between(1, 60)}`, ...place },
    registered_date: registered,
    status: 'active',
    status_date: null,
    vat_registered_date: vat ? vatDateAfter(registered, d) : null,
    employees: employees > 0 ? employees : null,
    tier_2: t2,
    roles: [
      ['DAGL', 'DAGL', dagl.name, dagl.birth],
      ['STYR', 'LEDE', chair.name, chair.birth],
      ...members.map((m): [string, string, string, LocalDate] => ['STYR', 'MEDL', m.name, m.birth]),
    ],
    signing,
    prokura: procurator ? [[['PROK', procurator.name]]] : [],
    accounts: {
      year: 2024,
      currency: 'NOK',
      revenue,
      operating_result: operating,
      annual_result: thousands(operating * (1 - TAX_RATE)),
      assets,
      equity,
    },
    delegation: t2 ? { system_user: true, scopes: [...ALL_SCOPES] } : NO_DELEGATION,
    filed: [],
  }
}

/** A sole proprietorship: one holder; a few are side businesses below the VAT threshold. */
function soleProprietorship(org: string, d: Draws): SandboxCompany {
  const trade = d.pick(TRADES)
  const place = d.pick(PLACES)
  const year = d.between(2004, 2023)
  const registered = ymd(year, d.between(1, 12), d.between(1, 28))
  const owner = person(d, d.pick(FIRST_NAMES), 1950, year - 20)
  const side = d.chance(0.25)
  const employees = side ? 0 : d.chance(0.6) ? 0 : d.between(1, 3)
  const revenue = side
    ? thousands(d.between(15_000, 49_000))
    : thousands((employees + 1) * trade.revenuePerFte * d.fraction(0.4, 0.9))
  const vat = revenue > VAT_THRESHOLD
  const t2 = tier2(d, employees, revenue, thousands(revenue * d.fraction(0.15, 0.5)), vat)
  const surname = owner.name.split(' ')[1]!.toLocaleUpperCase('nb')
  return {
    org_number: org,
    name: `${surname} ${trade.word}`,
    entity_type: 'ENK',
    scenario: null,
    description_nb: DESCRIPTION.nb,
    description_en: DESCRIPTION.en,
    nace: [trade.nace],
    address: { street: `${d.pick(STREETS)} ${d.between(1, 60)}`, ...place },
    registered_date: registered,
    status: 'active',
    status_date: null,
    vat_registered_date: vat ? vatDateAfter(registered, d) : null,
    employees: employees > 0 ? employees : null,
    tier_2: t2,
    roles: [['INNH', 'INNH', owner.name, owner.birth]],
    signing: { rule: 'coded', text: 'Innehaveren alene.', combinations: [[['INNH', owner.name]]] },
    prokura: [],
    // An ENK this small has no duty to file annual accounts (regnskapsloven § 1-2).
    accounts: null,
    delegation: t2 ? { system_user: true, scopes: [...ALL_SCOPES] } : NO_DELEGATION,
    filed: [],
  }
}

/** The synthetic company of a number in a valid series; the caller checks the series. */
export function syntheticCompany(org: string): SandboxCompany {
  const d = new Draws(org)
  return d.chance(0.25) ? soleProprietorship(org, d) : limitedCompany(org, d)
}
