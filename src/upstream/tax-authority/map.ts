/**
 * The validation answer (`valideringsresultat`, reference/flows.md §3) → ours. Two shapes are in
 * use: the XSD v1 one (`avvikVedMeldingslevering`, `avvik[]{stiTilAvvik, avviksinformasjon[]}`) and
 * the older one the API documentation still shows (`status: UGYLDIG_SKATTEMELDING`,
 * `valideringsfeil[]{stiTilFeil, valideringsDetaljer[]}`). Each finding becomes one `avvik` entry.
 */
import { child, childrenNamed, childText, parseXml, XmlError, type XmlElement } from '../../lib/xml.ts'
import type { VatValidation, VatValidationOutcome } from './port.ts'

export const VALIDERINGSRESULTAT_NS = 'no:skatteetaten:fastsetting:avgift:mva:valideringsresultat:v1'

const OUTCOMES: readonly VatValidationOutcome[] = [
  'ingen avvik',
  'avvikende skattemelding',
  'mangelfull skattemelding',
  'ugyldig skattemelding',
]

/** The older shape's severities. */
const OLD_STATUS: Record<string, VatValidationOutcome> = {
  GYLDIG: 'ingen avvik',
  GYLDIG_SKATTEMELDING: 'ingen avvik',
  INGEN_AVVIK: 'ingen avvik',
  AVVIKENDE_SKATTEMELDING: 'avvikende skattemelding',
  MANGELFULL_SKATTEMELDING: 'mangelfull skattemelding',
  UGYLDIG_SKATTEMELDING: 'ugyldig skattemelding',
}

type Avvik = VatValidation['avvik'][number]

function finding(
  stiTilAvvik: string,
  avvikKode: string | undefined,
  regelDefinisjon: string | undefined,
  detaljer: string | undefined,
): Avvik | null {
  if (avvikKode === undefined || regelDefinisjon === undefined) return null
  return detaljer === undefined || detaljer === ''
    ? { stiTilAvvik, avvikKode, regelDefinisjon }
    : { stiTilAvvik, avvikKode, regelDefinisjon, detaljer }
}

function v1(root: XmlElement, outcome: string): VatValidation | null {
  if (!(OUTCOMES as readonly string[]).includes(outcome)) return null
  const avvik: Avvik[] = []
  for (const a of childrenNamed(root, 'avvik')) {
    const sti = childText(a, 'stiTilAvvik') ?? ''
    for (const info of childrenNamed(a, 'avviksinformasjon')) {
      const f = finding(
        sti,
        childText(info, 'avvikKode'),
        childText(info, 'regelDefinisjon'),
        childText(info, 'detaljer'),
      )
      if (!f) return null
      avvik.push(f)
    }
  }
  return { avvikVedMeldingslevering: outcome as VatValidationOutcome, avvik }
}

function old(root: XmlElement, status: string): VatValidation | null {
  const outcome = OLD_STATUS[status]
  if (!outcome) return null
  const avvik: Avvik[] = []
  for (const feil of childrenNamed(root, 'valideringsfeil')) {
    const sti = childText(feil, 'stiTilFeil') ?? ''
    for (const d of childrenNamed(feil, 'valideringsDetaljer')) {
      const f = finding(sti, childText(d, 'avvikKode'), childText(d, 'feilmelding'), childText(d, 'informasjon'))
      if (!f) return null
      avvik.push(f)
    }
  }
  return { avvikVedMeldingslevering: outcome, avvik }
}

/** null when the text is not a validation result in either shape. */
export function mapValideringsresultat(text: string): VatValidation | null {
  let root: XmlElement
  try {
    root = parseXml(text)
  } catch (e) {
    if (e instanceof XmlError) return null
    throw e
  }
  if (root.name !== 'valideringsresultat' || (root.ns !== '' && root.ns !== VALIDERINGSRESULTAT_NS)) return null
  const outcome = child(root, 'avvikVedMeldingslevering')
  if (outcome) return v1(root, outcome.text.trim())
  const status = childText(root, 'status')
  return status === undefined ? null : old(root, status)
}
