/**
 * The validation answer in both shapes in use (reference/flows.md §3): the XSD v1 one, with or
 * without a namespace prefix, and the older one the API documentation still shows.
 */
import { expect, test } from 'bun:test'
import { mapValideringsresultat } from '../../../src/upstream/tax-authority/map.ts'

const dir = `${import.meta.dir}/fixtures`
const read = (name: string) => Bun.file(`${dir}/${name}`).text()

test('v1 without findings: ingen avvik', async () => {
  expect(mapValideringsresultat(await read('valideringsresultat-ingen-avvik.xml'))).toEqual({
    avvikVedMeldingslevering: 'ingen avvik',
    avvik: [],
  })
})

test('v1 with findings (prefixed namespace): the verdict and one entry per finding, detaljer only when given', async () => {
  expect(mapValideringsresultat(await read('valideringsresultat-avvik.xml'))).toEqual({
    avvikVedMeldingslevering: 'ugyldig skattemelding',
    avvik: [
      {
        stiTilAvvik: '//skattegrunnlagOgBeregnetSkatt/mvaSpesifikasjonslinje[1]',
        avvikKode: 'MvaMeldingsinnhold_GrunnlagGangerGjeldendeSats_FeilBeregnetMerverdiavgiftForAvgiftslinje',
        regelDefinisjon: 'Beregnet avgift i avgiftslinje er ulik produktet av grunnlag og sats',
        detaljer: 'R019',
      },
      {
        stiTilAvvik: '//skattegrunnlagOgBeregnetSkatt/fastsattMerverdiavgift',
        avvikKode: 'MVA_MELDINGSINNHOLD_SUM_MVA_FEIL_SUMMERING_AV_AVGIFTLINJER',
        regelDefinisjon:
          'Summen av merverdiavgift for alle kodelinjene er ikke lik beløpet som er oppgitt som fastsatt merverdiavgift.',
      },
    ],
  })
})

test('the older shape (status UGYLDIG_SKATTEMELDING, valideringsfeil): the same verdict and findings', async () => {
  const v = mapValideringsresultat(await read('valideringsresultat-gammel.xml'))
  expect(v?.avvikVedMeldingslevering).toBe('ugyldig skattemelding')
  expect(v?.avvik).toHaveLength(1)
  expect(v?.avvik[0]).toMatchObject({
    stiTilAvvik: '//innsending',
    avvikKode: 'MvaMeldingsinnhold_Xml_SkjemaValideringsfeil',
    regelDefinisjon: 'Mva meldingen må være på gyldig format og passere XML skjema valideringen',
  })
  expect(v?.avvik[0]?.detaljer).toStartWith('cvc-complex-type.2.4.b')
})

test('the older shape without findings (GYLDIG): ingen avvik', () => {
  expect(mapValideringsresultat('<valideringsresultat><status>GYLDIG</status></valideringsresultat>')).toEqual({
    avvikVedMeldingslevering: 'ingen avvik',
    avvik: [],
  })
})

test('anything else is not read: truncated XML, JSON, another root, an unknown verdict, a DOCTYPE', async () => {
  const full = await read('valideringsresultat-avvik.xml')
  expect(mapValideringsresultat(full.slice(0, full.length / 2))).toBeNull()
  expect(mapValideringsresultat('{"avvikVedMeldingslevering":"ingen avvik"}')).toBeNull()
  expect(mapValideringsresultat('<mvaMeldingDto/>')).toBeNull()
  expect(
    mapValideringsresultat(
      '<valideringsresultat><avvikVedMeldingslevering>helt fint</avvikVedMeldingslevering></valideringsresultat>',
    ),
  ).toBeNull()
  expect(
    mapValideringsresultat(
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><valideringsresultat><status>&e;</status></valideringsresultat>',
    ),
  ).toBeNull()
})

test('a result in another namespace is not read', () => {
  expect(
    mapValideringsresultat(
      '<valideringsresultat xmlns="urn:something:else"><avvikVedMeldingslevering>ingen avvik</avvikVedMeldingslevering></valideringsresultat>',
    ),
  ).toBeNull()
})
