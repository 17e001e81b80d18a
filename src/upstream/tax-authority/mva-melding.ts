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
 *   `kundeIdentifikasjonsnummer` (KID) and `merknad` (a string) pass through when present.
 * - The period label: `YYYY-Tn` → the two-month term, `YYYY-MM` → the month, `YYYY-A` → the year.
 */
import { isRecord } from '../../lib/json.ts'
import { SCHEMA_VERSION } from '../../lib/service.ts'
import { el, optional, writeXml, type XmlNode } from '../../lib/xml.ts'
import type { VatReturn } from './port.ts'

export const MVA_MELDING_NS = 'no:skatteetaten:fastsetting:avgift:mva:skattemeldingformerverdiavgift:v1.0'
export const INNSENDING_NS = 'no:skatteetaten:fastsetting:avgift:mva:mvameldinginnsending:v1.0'

export const MELDINGSKATEGORIER = ['alminnelig', 'primaernaering', 'kompensasjon', 'omvendtAvgiftsplikt', 'eHandel'] as const
export type Meldingskategori = (typeof MELDINGSKATEGORIER)[number]

/** The standard rate, percent, as the format writes rates (a string). */
const STANDARD_RATE = 25

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
  merknad?: { utvalgtMerknad?: string; beskrivelse?: string }
}

export interface MvaMelding {
  organisasjonsnummer: string
  skattleggingsperiode: Skattleggingsperiode
  meldingskategori: Meldingskategori
  fastsattMerverdiavgift: number
  linjer: MvaLinje[]
  kundeIdentifikasjonsnummer: string | null
  merknad: string | null
}

const TERMS = ['januar-februar', 'mars-april', 'mai-juni', 'juli-august', 'september-oktober', 'november-desember']
const MONTHS = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember']

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
  if (isRecord(r.merknad)) {
    const merknad: NonNullable<MvaLinje['merknad']> = {}
    const utvalgt = text(r.merknad.utvalgtMerknad)
    const beskrivelse = text(r.merknad.beskrivelse)
    if (utvalgt !== undefined) merknad.utvalgtMerknad = utvalgt
    if (beskrivelse !== undefined) merknad.beskrivelse = beskrivelse
    line.merknad = merknad
  }
  return line
}

function derivedLines(payload: Record<string, unknown>): MvaLinje[] {
  const lines: MvaLinje[] = []
  const revenue = num(payload.total_revenue_nok) ?? 0
  const output = num(payload.output_vat_nok)
  if (revenue !== 0 || output !== undefined) {
    lines.push({ mvaKode: '3', grunnlag: revenue, sats: String(STANDARD_RATE), merverdiavgift: output ?? Math.floor((revenue * STANDARD_RATE) / 100) })
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
    merknad: text(p.merknad) ?? null,
  }
}

const periodeNode = (s: Skattleggingsperiode): XmlNode => el('skattleggingsperiode', [el('periode', [el(s.element, s.verdi)]), el('aar', s.aar)])

function lineNode(l: MvaLinje): XmlNode {
  return el('mvaSpesifikasjonslinje', [
    el('mvaKode', l.mvaKode),
    optional('spesifikasjon', l.spesifikasjon),
    optional('mvaKodeRegnskapsystem', l.mvaKodeRegnskapsystem),
    optional('grunnlag', l.grunnlag),
    optional('sats', l.sats),
    optional('merverdiavgift', l.merverdiavgift),
    l.merknad ? el('merknad', [optional('utvalgtMerknad', l.merknad.utvalgtMerknad), optional('beskrivelse', l.merknad.beskrivelse)]) : null,
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
      el('innsending', [el('regnskapssystemsreferanse', reference), el('regnskapssystem', [el('systemnavn', REGNSKAPSSYSTEM.systemnavn), el('systemversjon', REGNSKAPSSYSTEM.systemversjon)])]),
      el('skattegrunnlagOgBeregnetSkatt', [periodeNode(m.skattleggingsperiode), el('fastsattMerverdiavgift', m.fastsattMerverdiavgift), ...m.linjer.map(lineNode)]),
      m.kundeIdentifikasjonsnummer === null ? null : el('betalingsinformasjon', [el('kundeIdentifikasjonsnummer', m.kundeIdentifikasjonsnummer)]),
      el('skattepliktig', [el('organisasjonsnummer', m.organisasjonsnummer)]),
      el('meldingskategori', m.meldingskategori),
      m.merknad === null ? null : el('merknad', [el('beskrivelse', m.merknad)]),
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
        el('vedleggsfil', [el('filnavn', MVA_MELDING_FILENAME), el('filekstensjon', 'xml'), el('filinnhold', 'mva-melding')]),
      ]),
    ],
  })
}
