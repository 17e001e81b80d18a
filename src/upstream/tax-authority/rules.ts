/**
 * A few of the tax authority's own validation rules (reference/flows.md §3), for the mock and the
 * fixture server: the format (every line has a code and a VAT amount), R019 (base × rate is the
 * line's VAT, rounded down; ugyldig) and R018 (the lines sum to the total; avvikende). The verdict
 * is the worst finding's severity.
 */
import type { MvaMelding } from './mva-melding.ts'
import type { VatValidation, VatValidationOutcome } from './port.ts'

/** One finding, with the severity it carries in the validation answer (`avvikstype`). */
export type Finding = VatValidation['avvik'][number] & { severity: VatValidationOutcome }

const SEVERITY: readonly VatValidationOutcome[] = [
  'ingen avvik',
  'avvikende skattemelding',
  'mangelfull skattemelding',
  'ugyldig skattemelding',
]

/** The rate as a number: the format writes `25`, `11,11`. */
function rate(sats: string): number | null {
  const n = Number(sats.replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

export function vatFindings(m: MvaMelding): VatValidation {
  const found = findingsOf(m)
  return { avvikVedMeldingslevering: outcomeOf(found), avvik: found.map(({ severity: _s, ...a }) => a) }
}

/** The verdict of a list of findings: the worst severity among them. */
export function outcomeOf(found: Finding[]): VatValidationOutcome {
  return SEVERITY[found.reduce((w, f) => Math.max(w, SEVERITY.indexOf(f.severity)), 0)]!
}

export function findingsOf(m: MvaMelding): Finding[] {
  const found: Finding[] = []
  m.linjer.forEach((l, i) => {
    const path = `//skattegrunnlagOgBeregnetSkatt/mvaSpesifikasjonslinje[${i + 1}]`
    if (l.mvaKode === '' || l.merverdiavgift === null) {
      found.push({
        severity: 'ugyldig skattemelding',
        stiTilAvvik: path,
        avvikKode: 'MvaMeldingsinnhold_Xml_SkjemaValideringsfeil',
        regelDefinisjon: 'Mva meldingen må være på gyldig format og passere XML skjema valideringen',
        detaljer: 'mvaKode og merverdiavgift må være utfylt',
      })
      return
    }
    const r = l.sats === undefined ? null : rate(l.sats)
    if (l.grunnlag !== undefined && r !== null && Math.abs((l.grunnlag * r) / 100 - l.merverdiavgift) >= 1) {
      found.push({
        severity: 'ugyldig skattemelding',
        stiTilAvvik: path,
        avvikKode: 'MvaMeldingsinnhold_GrunnlagGangerGjeldendeSats_FeilBeregnetMerverdiavgiftForAvgiftslinje',
        regelDefinisjon: 'Beregnet avgift i avgiftslinje er ulik produktet av grunnlag og sats',
        detaljer: 'R019',
      })
    }
  })
  const sum = m.linjer.reduce((s, l) => s + (l.merverdiavgift ?? 0), 0)
  if (sum !== m.fastsattMerverdiavgift) {
    found.push({
      severity: 'avvikende skattemelding',
      stiTilAvvik: '//skattegrunnlagOgBeregnetSkatt/fastsattMerverdiavgift',
      avvikKode: 'MVA_MELDINGSINNHOLD_SUM_MVA_FEIL_SUMMERING_AV_AVGIFTLINJER',
      regelDefinisjon:
        'Summen av merverdiavgift for alle kodelinjene er ikke lik beløpet som er oppgitt som fastsatt merverdiavgift.',
      detaljer: 'R018',
    })
  }
  return found
}
