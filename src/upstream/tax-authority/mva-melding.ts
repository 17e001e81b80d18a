/**
 * Our VAT payload → the tax authority's VAT return (`mvaMeldingDto`, skattemeldingformerverdiavgift
 * v1.0) and its envelope (`mvaMeldingInnsending`, the portal's "konvolutt"), reference/flows.md §3.
 *
 * The mapping, since our payload is deliberately shallow (domain/actions/payload.ts):
 * - `mvaSpesifikasjonslinje` (the upstream's own lines, passed on verbatim by a client that has
 *   them) are used as given; `fastsattMerverdiavgift` likewise, else the sum of the lines.
 * - Otherwise the lines are derived: `total_revenue_nok` is the base of one output line, code 3
 *   (domestic sales at the standard rate, 25 %), whose VAT is `output_vat_nok` or, when absent, 25 %
 *   of the base rounded down; `input_vat_nok` is one deductible input line, code 1, its VAT negative
 *   and without base or rate, as the format wants input VAT. A return that is not all at the
 *   standard rate must carry its own lines. The total is the sum of the lines.
 * - `meldingskategori` (one of the five) passes through, default `alminnelig`;
 *   `kundeIdentifikasjonsnummer` (KID) passes through when present, inside `betalingsinformasjon`,
 *   which the schema requires in every return (only the KID in it is optional).
 * - `merknad`, on the return or on a line, is the schema's choice: a free text (`beskrivelse`) or
 *   one from the code list (`utvalgtMerknad`), never both. A string is a free text; an object names
 *   one of the two. One that names both is refused before anything is sent (`mvaPayloadIssues`):
 *   which of two remarks a person meant is not ours to guess on a legal filing.
 * - Amounts are the schema's `xsd:decimal`, written without an exponent. Beyond ±10 000 000 000 000
 *   kroner (`MAX_AMOUNT_NOK`) an amount is refused: no return carries it, and past it a JSON number
 *   can no longer hold every øre.
 * - The period label: `YYYY-Tn` → the two-month term, `YYYY-MM` → the month, `YYYY-A` → the year.
 *
 * The schemas themselves are in `contracts/skatteetaten-mva/`; `test/contract/upstream/` validates
 * what this module writes against them.
 */
import type { FieldIssue } from '../../errors/app-error.ts'
import { isRecord } from '../../lib/json.ts'
import { SCHEMA_VERSION } from '../../lib/service.ts'
import { el, optional, writeXml, type XmlNode } from '../../lib/xml.ts'
import type { VatReturn } from './port.ts'

export const MVA_MELDING_NS = 'no:skatteetaten:fastsetting:avgift:mva:skattemeldingformerverdiavgift:v1.0'
export const INNSENDING_NS = 'no:skatteetaten:fastsetting:avgift:mva:mvameldinginnsending:v1.0'

export const MELDINGSKATEGORIER = [
  'alminnelig',
  'primaernaering',
  'kompensasjon',
  'omvendtAvgiftsplikt',
  'eHandel',
] as const
export type Meldingskategori = (typeof MELDINGSKATEGORIER)[number]

/** The standard rate, percent, as the format writes rates (a string). */
const STANDARD_RATE = 25

/** The largest amount, in kroner either way, a return may carry (see the header). */
export const MAX_AMOUNT_NOK = 10_000_000_000_000

/** The schema's `Tekst`: at most 4 000 characters. */
export const MAX_TEXT = 4000

/** A remark: the schema's `Merknad` choice. */
export type Merknad = { utvalgtMerknad: string } | { beskrivelse: string }

export type PeriodeElement = 'skattleggingsperiodeToMaaneder' | 'skattleggingsperiodeMaaned' | 'skattleggingsperiodeAar'

export interface Skattleggingsperiode {
  element: PeriodeElement
  verdi: string
  aar: number
}

export interface MvaLinje {
  mvaKode: string
  spesifikasjon?: string
  mvaKodeRegnskapsystem?: string
  grunnlag?: number
  sats?: string
  /** null when a client-supplied line has none: written without it, so the validation names it */
  merverdiavgift: number | null
  merknad?: Merknad
}

export interface MvaMelding {
  organisasjonsnummer: string
  skattleggingsperiode: Skattleggingsperiode
  meldingskategori: Meldingskategori
  fastsattMerverdiavgift: number
  linjer: MvaLinje[]
  kundeIdentifikasjonsnummer: string | null
  merknad: Merknad | null
}

const TERMS = ['januar-februar', 'mars-april', 'mai-juni', 'juli-august', 'september-oktober', 'november-desember']
const MONTHS = [
  'januar',
  'februar',
  'mars',
  'april',
  'mai',
  'juni',
  'juli',
  'august',
  'september',
  'oktober',
  'november',
  'desember',
]

/** Our period label as the format's period; throws on a label the domain would not have accepted. */
export function skattleggingsperiode(label: string): Skattleggingsperiode {
  const m = /^(\d{4})-(?:T([1-6])|(A)|(0[1-9]|1[0-2]))$/.exec(label)
  if (!m) throw new Error(`mva-melding: not a VAT period label: ${label}`)
  const aar = Number(m[1])
  if (m[2]) return { element: 'skattleggingsperiodeToMaaneder', verdi: TERMS[Number(m[2]) - 1]!, aar }
  if (m[3]) return { element: 'skattleggingsperiodeAar', verdi: 'aarlig', aar }
  return { element: 'skattleggingsperiodeMaaned', verdi: MONTHS[Number(m[4]) - 1]!, aar }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/**
 * A remark as the client gave it: a string is a free text; an object names `utvalgtMerknad` or
 * `beskrivelse`. One naming both never gets here (`mvaPayloadIssues` refuses it); were it to, the
 * code-list remark is kept, as the more specific.
 */
function merknadOf(v: unknown): Merknad | undefined {
  if (typeof v === 'string') return { beskrivelse: v }
  if (!isRecord(v)) return undefined
  const utvalgt = text(v.utvalgtMerknad)
  if (utvalgt !== undefined) return { utvalgtMerknad: utvalgt }
  const beskrivelse = text(v.beskrivelse)
  return beskrivelse === undefined ? undefined : { beskrivelse }
}

/** A client's line, keeping only the format's fields with a value of the right kind. */
function lineOf(raw: unknown): MvaLinje {
  const r = isRecord(raw) ? raw : {}
  const line: MvaLinje = {
    mvaKode: typeof r.mvaKode === 'number' ? String(r.mvaKode) : (text(r.mvaKode) ?? ''),
    merverdiavgift: num(r.merverdiavgift) ?? null,
  }
  const spesifikasjon = text(r.spesifikasjon)
  if (spesifikasjon !== undefined) line.spesifikasjon = spesifikasjon
  const regnskap = text(r.mvaKodeRegnskapsystem)
  if (regnskap !== undefined) line.mvaKodeRegnskapsystem = regnskap
  const grunnlag = num(r.grunnlag)
  if (grunnlag !== undefined) line.grunnlag = grunnlag
  // Rates are strings with a decimal comma in the format (`11,11`); a number is written that way.
  const sats = typeof r.sats === 'number' ? String(r.sats).replace('.', ',') : text(r.sats)
  if (sats !== undefined) line.sats = sats
  const merknad = merknadOf(r.merknad)
  if (merknad !== undefined) line.merknad = merknad
  return line
}

function derivedLines(payload: Record<string, unknown>): MvaLinje[] {
  const lines: MvaLinje[] = []
  const revenue = num(payload.total_revenue_nok) ?? 0
  const output = num(payload.output_vat_nok)
  if (revenue !== 0 || output !== undefined) {
    lines.push({
      mvaKode: '3',
      grunnlag: revenue,
      sats: String(STANDARD_RATE),
      merverdiavgift: output ?? Math.floor((revenue * STANDARD_RATE) / 100),
    })
  }
  const input = num(payload.input_vat_nok)
  if (input !== undefined && input !== 0) lines.push({ mvaKode: '1', merverdiavgift: -input })
  return lines
}

export function meldingOf(vat: VatReturn): MvaMelding {
  const p = vat.payload
  const linjer = Array.isArray(p.mvaSpesifikasjonslinje) ? p.mvaSpesifikasjonslinje.map(lineOf) : derivedLines(p)
  const sum = linjer.reduce((s, l) => s + (l.merverdiavgift ?? 0), 0)
  const kategori = MELDINGSKATEGORIER.find((k) => k === p.meldingskategori) ?? 'alminnelig'
  return {
    organisasjonsnummer: vat.org_number,
    skattleggingsperiode: skattleggingsperiode(vat.period),
    meldingskategori: kategori,
    fastsattMerverdiavgift: num(p.fastsattMerverdiavgift) ?? sum,
    linjer,
    kundeIdentifikasjonsnummer: text(p.kundeIdentifikasjonsnummer) ?? null,
    merknad: merknadOf(p.merknad) ?? null,
  }
}

/**
 * An amount as the schema's `xsd:decimal`: digits, an optional sign and point, never an exponent
 * (`String(1e21)` is `1e+21`, which the schema refuses). Only finite amounts within
 * `MAX_AMOUNT_NOK` reach here; anything else is a programming error.
 */
export function xsdDecimal(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) > MAX_AMOUNT_NOK)
    throw new Error(`mva-melding: amount outside what a return carries: ${n}`)
  const s = String(n === 0 ? 0 : n)
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s)
  if (!m) return s
  // Only tiny fractions get here (|n| < 1e-6, since |n| ≤ MAX_AMOUNT_NOK): shift the point left.
  const [, sign, int, frac = '', exp] = m
  const digits = int! + frac
  const point = int!.length + Number(exp)
  return `${sign}0.${'0'.repeat(-point)}${digits}`.replace(/0+$/, '')
}

const AMOUNT_FIELDS = ['grunnlag', 'merverdiavgift'] as const
const TEXT_FIELDS = ['mvaKode', 'spesifikasjon', 'mvaKodeRegnskapsystem'] as const

function amountIssue(field: string, v: unknown): FieldIssue | null {
  if (v === undefined || v === null) return null
  if (typeof v !== 'number' || !Number.isFinite(v)) return { field, message: 'must be a number (kroner)' }
  if (Math.abs(v) > MAX_AMOUNT_NOK)
    return { field, message: `must be at most ${MAX_AMOUNT_NOK} kroner either way: no VAT return carries more` }
  return null
}

function textIssue(field: string, v: unknown): FieldIssue | null {
  return typeof v === 'string' && v.length > MAX_TEXT
    ? { field, message: `must be at most ${MAX_TEXT} characters (the return's text limit)` }
    : null
}

function merknadIssues(field: string, v: unknown): FieldIssue[] {
  if (v === undefined || v === null) return []
  if (typeof v === 'string') return [textIssue(field, v)].filter((i) => i !== null)
  if (!isRecord(v)) return [{ field, message: 'must be a text, or an object with utvalgtMerknad or beskrivelse' }]
  const named = (['utvalgtMerknad', 'beskrivelse'] as const).filter((k) => v[k] !== undefined && v[k] !== null)
  if (named.length === 2)
    return [
      {
        field,
        message:
          'names both utvalgtMerknad and beskrivelse; the return takes one remark (a code-list remark or a free text): send one of them',
      },
    ]
  if (named.length === 0) return [{ field, message: 'must name utvalgtMerknad or beskrivelse' }]
  const value = v[named[0]!]
  if (typeof value !== 'string' || value === '')
    return [{ field: `${field}.${named[0]}`, message: 'must be a non-empty text' }]
  return [textIssue(`${field}.${named[0]}`, value)].filter((i) => i !== null)
}

/**
 * What in a VAT payload the return cannot carry, beyond the fields every action checks
 * (domain/actions/payload.ts): an ambiguous remark, an amount out of bounds or not a number, a
 * text over the schema's limit. Never throws.
 */
export function mvaPayloadIssues(p: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = []
  const push = (i: FieldIssue | null) => {
    if (i) issues.push(i)
  }
  push(amountIssue('payload.fastsattMerverdiavgift', p.fastsattMerverdiavgift))
  for (const name of ['total_revenue_nok', 'output_vat_nok', 'input_vat_nok']) {
    if (Number.isSafeInteger(p[name]) && Math.abs(p[name] as number) > MAX_AMOUNT_NOK)
      push(amountIssue(`payload.${name}`, p[name]))
  }
  push(textIssue('payload.kundeIdentifikasjonsnummer', p.kundeIdentifikasjonsnummer))
  issues.push(...merknadIssues('payload.merknad', p.merknad))
  if (p.mvaSpesifikasjonslinje !== undefined) {
    if (!Array.isArray(p.mvaSpesifikasjonslinje))
      return [...issues, { field: 'payload.mvaSpesifikasjonslinje', message: 'must be a list of lines' }]
    p.mvaSpesifikasjonslinje.forEach((raw, i) => {
      const at = `payload.mvaSpesifikasjonslinje[${i}]`
      if (!isRecord(raw)) {
        issues.push({ field: at, message: 'must be an object' })
        return
      }
      for (const f of AMOUNT_FIELDS) push(amountIssue(`${at}.${f}`, raw[f]))
      for (const f of TEXT_FIELDS) push(textIssue(`${at}.${f}`, raw[f]))
      issues.push(...merknadIssues(`${at}.merknad`, raw.merknad))
    })
  }
  return issues
}

const periodeNode = (s: Skattleggingsperiode): XmlNode =>
  el('skattleggingsperiode', [el('periode', [el(s.element, s.verdi)]), el('aar', s.aar)])

const amountNode = (name: string, v: number | null | undefined): XmlNode =>
  v === undefined || v === null ? null : el(name, xsdDecimal(v))

/** The schema's `Merknad` choice: exactly one of its two elements. */
const merknadNode = (m: Merknad): XmlNode =>
  el('merknad', ['utvalgtMerknad' in m ? el('utvalgtMerknad', m.utvalgtMerknad) : el('beskrivelse', m.beskrivelse)])

function lineNode(l: MvaLinje): XmlNode {
  return el('mvaSpesifikasjonslinje', [
    el('mvaKode', l.mvaKode),
    optional('spesifikasjon', l.spesifikasjon),
    optional('mvaKodeRegnskapsystem', l.mvaKodeRegnskapsystem),
    amountNode('grunnlag', l.grunnlag),
    optional('sats', l.sats),
    amountNode('merverdiavgift', l.merverdiavgift),
    l.merknad ? merknadNode(l.merknad) : null,
  ])
}

/** How the return names the system that made it (`innsending.regnskapssystem`). */
export const REGNSKAPSSYSTEM = { systemnavn: 'Plikt', systemversjon: SCHEMA_VERSION }

/**
 * The return as the validation API and the portal's `mvamelding` data element take it;
 * `reference` is ours (`regnskapssystemsreferanse`): the action id when filing.
 */
export function mvaMeldingXml(m: MvaMelding, reference: string): string {
  return writeXml({
    name: 'mvaMeldingDto',
    ns: MVA_MELDING_NS,
    children: [
      el('innsending', [
        el('regnskapssystemsreferanse', reference),
        el('regnskapssystem', [
          el('systemnavn', REGNSKAPSSYSTEM.systemnavn),
          el('systemversjon', REGNSKAPSSYSTEM.systemversjon),
        ]),
      ]),
      el('skattegrunnlagOgBeregnetSkatt', [
        periodeNode(m.skattleggingsperiode),
        amountNode('fastsattMerverdiavgift', m.fastsattMerverdiavgift),
        ...m.linjer.map(lineNode),
      ]),
      el('betalingsinformasjon', [optional('kundeIdentifikasjonsnummer', m.kundeIdentifikasjonsnummer)]),
      el('skattepliktig', [el('organisasjonsnummer', m.organisasjonsnummer)]),
      el('meldingskategori', m.meldingskategori),
      m.merknad === null ? null : merknadNode(m.merknad),
    ],
  })
}

/** The file name the return is uploaded under; the envelope names it. */
export const MVA_MELDING_FILENAME = 'mvaMelding.xml'

/** The envelope: whose return, which period and category, and the one attachment, the return itself. */
export function konvoluttXml(m: MvaMelding, createdBy: string, at: Date): string {
  const when = at.toISOString()
  return writeXml({
    name: 'mvaMeldingInnsending',
    ns: INNSENDING_NS,
    children: [
      el('norskIdentifikator', [el('organisasjonsnummer', m.organisasjonsnummer)]),
      periodeNode(m.skattleggingsperiode),
      el('meldingskategori', m.meldingskategori),
      el('innsendingstype', 'komplett'),
      el('instansstatus', 'default'),
      el('opprettetAv', createdBy),
      el('opprettingstidspunkt', when),
      el('vedlegg', [
        el('vedleggstype', 'mva-melding'),
        el('kildegruppe', 'sluttbrukersystem'),
        el('opprettetAv', createdBy),
        el('opprettingstidspunkt', when),
        el('vedleggsfil', [
          el('filnavn', MVA_MELDING_FILENAME),
          el('filekstensjon', 'xml'),
          el('filinnhold', 'mva-melding'),
        ]),
      ]),
    ],
  })
}
