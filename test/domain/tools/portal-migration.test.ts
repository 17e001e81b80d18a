/**
 * Legacy role codes → Altinn 3 access packages (upstreams.md §4.3), the verified flag, accepted
 * input forms, errors, and the Altinn II timeline (§4.1) against an injected instant.
 */
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AppError } from '../../../src/errors/app-error.ts'
import { PORTAL2_CODES, portal2Status, portalMigration } from '../../../src/domain/tools/portal-migration.ts'
import { PortalMigrationResult } from '../../../src/schemas/tools.ts'

const now = new Date('2026-03-01T12:00:00Z')
const packages = (code: string) => portalMigration(code, now).portal3.map((p) => p.package)

function appError(f: () => unknown): AppError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected an AppError')
}

describe('verified rows (basis S, R or D)', () => {
  test('A0239 is regnskapsforer-med-signeringsrettighet, verified on S, R and D', () => {
    const r = portalMigration('A0239', now)
    expect(r).toMatchObject({
      portal2_code: 'A0239',
      kind: 'altinn2_role',
      verified: true,
      basis: ['S', 'R', 'D'],
      er_role_urn: null,
    })
    expect(r.portal3).toEqual([
      {
        urn: 'urn:altinn:accesspackage:regnskapsforer-med-signeringsrettighet',
        package: 'regnskapsforer-med-signeringsrettighet',
        condition: null,
      },
    ])
  })

  test('each basis letter is explained in English and bokmål', () => {
    const r = portalMigration('A0239', now)
    expect(r.basis_explained.map((b) => b.code)).toEqual(['S', 'R', 'D'])
    for (const b of r.basis_explained) {
      expect(b.en.length).toBeGreaterThan(20)
      expect(b.nb.length).toBeGreaterThan(20)
    }
  })

  test.each([
    ['A0240', 'regnskapsforer-uten-signeringsrettighet'],
    ['A0241', 'regnskapsforer-lonn'],
    ['A0237', 'ansvarlig-revisor'],
    ['A0238', 'revisormedarbeider'],
    ['HADM', 'hovedadministrator'],
    ['ADMAI', 'tilgangsstyrer'],
    ['KLADM', 'klientadministrator'],
    ['BOBEL', 'konkursbo-lesetilgang'],
    ['BOBES', 'konkursbo-skrivetilgang'],
  ])('%s → %s, verified', (code, pkg) => {
    const r = portalMigration(code, now)
    expect(r.verified).toBe(true)
    expect(r.portal3.map((p) => p.package)).toEqual([pkg])
  })
})

describe('name-match rows (basis N) are unverified', () => {
  test.each([
    ['BOADM', ['konkursbo-tilgangsstyrer']],
    ['A0298', ['revisorattesterer']],
    ['ATTST', ['mva-kompensasjon-revisorattesterer']],
    ['APIADM', ['maskinporten-administrator', 'maskinporten-scopes']],
    ['A0236', ['ordinaer-post-til-virksomheten']],
    ['PAVAD', ['patent-varemerke-design']],
  ])('%s → %j, verified false', (code, pkgs) => {
    const r = portalMigration(code, now)
    expect(r).toMatchObject({ verified: false, basis: ['N'] })
    expect(r.portal3.map((p) => p.package)).toEqual(pkgs)
    expect(r.explanation.en).toContain('no official source confirms')
  })

  test("package codes use Altinn's spelling, never the documentation's drifted one", () => {
    const all = PORTAL2_CODES.flatMap((c) => packages(c))
    expect(all).toContain('revisorattesterer')
    expect(all).toContain('maskinporten-scopes')
    expect(all).not.toContain('reviorattesterer')
    expect(all).not.toContain('delegerbare-maskinporten-scopes')
  })
})

describe('general Altinn 2 roles have no 1:1 package', () => {
  test.each(['UTINN', 'REGNA', 'LOPER', 'SISKD', 'UILUF', 'UTOMR', 'UIHTL', 'KOMAB', 'A0212', 'A0278', 'HVASK'])(
    '%s → no packages, unverified, service owner chooses',
    (code) => {
      const r = portalMigration(code, now)
      expect(r).toMatchObject({ kind: 'altinn2_role', portal3: [], verified: false, basis: [] })
      expect(r.explanation.en).toContain('service owner')
      expect(r.explanation.nb).toContain('tjenesteeier')
    },
  )
})

describe('ER roles', () => {
  test('DAGL holds the whole key-role package list of the table', () => {
    const r = portalMigration('DAGL', now)
    expect(r).toMatchObject({
      kind: 'er_role',
      verified: true,
      portal2_name: 'Daglig leder',
      er_role_urn: 'urn:altinn:external-role:ccr:daglig-leder',
    })
    expect(packages('DAGL')).toEqual(
      expect.arrayContaining([
        'hovedadministrator',
        'tilgangsstyrer',
        'skatt-naering',
        'merverdiavgift',
        'a-ordning',
        'lonn',
        'pensjon',
        'regnskap-okonomi-rapport',
        'starte-drive-endre-avvikle-virksomhet',
        'aksjer-og-eierforhold',
        'attester',
        'revisorattesterer',
        'ordinaer-post-til-virksomheten',
        'maskinporten-administrator',
      ]),
    )
  })

  test('BOBE lacks the employment packages and starte-drive-endre-avvikle-virksomhet, and has the konkursbo ones', () => {
    const p = packages('BOBE')
    for (const missing of [
      'a-ordning',
      'lonn',
      'ansettelsesforhold',
      'sykefravaer',
      'permisjon',
      'oppgi-naermeste-leder',
      'pensjon',
      'starte-drive-endre-avvikle-virksomhet',
    ])
      expect(p).not.toContain(missing)
    expect(p).toEqual(
      expect.arrayContaining([
        'hovedadministrator',
        'merverdiavgift',
        'konkursbo-lesetilgang',
        'konkursbo-skrivetilgang',
      ]),
    )
  })

  test('KOMP and BEST are key roles without hovedadministrator', () => {
    expect(packages('KOMP')).not.toContain('hovedadministrator')
    expect(packages('BEST')).not.toContain('hovedadministrator')
    expect(packages('KOMP')).toContain('merverdiavgift')
  })

  test('REGN and REVI hold the accountant and auditor packages', () => {
    expect(packages('REGN')).toEqual([
      'regnskapsforer-med-signeringsrettighet',
      'regnskapsforer-uten-signeringsrettighet',
      'regnskapsforer-lonn',
    ])
    expect(packages('REVI')).toEqual(['ansvarlig-revisor', 'revisormedarbeider'])
  })

  test('FFØR packages carry their organisation-form conditions', () => {
    const r = portalMigration('FFØR', now)
    expect(r.portal3[0]).toMatchObject({
      package: 'forretningsforer-eiendom',
      condition: expect.stringContaining('BRL'),
    })
    expect(r.portal3.slice(1).every((p) => p.condition?.includes('NUF'))).toBe(true)
  })

  test.each(['MEDL', 'NEST', 'VARA', 'OBS', 'SIGN', 'PROK', 'KONT'])(
    '%s gives no packages, and that is verified',
    (code) => {
      const r = portalMigration(code, now)
      expect(r).toMatchObject({ kind: 'er_role', portal3: [], verified: true, basis: ['S'] })
    },
  )
})

describe('accepted input forms', () => {
  test.each([
    ['a0239', 'A0239'],
    ['urn:altinn:rolecode:a0239', 'A0239'],
    ['URN:ALTINN:ROLECODE:HADM', 'HADM'],
    ['urn:altinn:rolecode:dagl', 'DAGL'],
    ['urn:altinn:external-role:ccr:daglig-leder', 'DAGL'],
    ['urn:altinn:external-role:ccr:deltaker-fullt-ansvar', 'DTSO'],
    ['fFør', 'FFØR'],
    ['FFOR', 'FFØR'],
  ])('%s → %s', (input, code) => {
    expect(portalMigration(input, now).portal2_code).toBe(code)
  })
})

describe('errors', () => {
  test('an unknown code is NOT_FOUND on portal2_code', () => {
    const e = appError(() => portalMigration('XYZZY', now))
    expect(e).toMatchObject({ code: 'NOT_FOUND', status: 404 })
    expect(e.options.context).toEqual({ field: 'portal2_code' })
  })

  test('a numeric Altinn 2 service code is NOT_FOUND, saying service codes are not mapped', () => {
    const e = appError(() => portalMigration('5600', now))
    expect(e.code).toBe('NOT_FOUND')
    expect(e.options.details![0]!.message).toContain('service code')
  })

  test('an Altinn 3 package URN is NOT_FOUND, saying it is already Altinn 3', () => {
    const e = appError(() => portalMigration('urn:altinn:accesspackage:lonn', now))
    expect(e.options.details![0]!.message).toContain('already an Altinn 3 access package')
  })

  test('an unknown ER slug is NOT_FOUND', () => {
    expect(appError(() => portalMigration('urn:altinn:external-role:ccr:nobody', now)).code).toBe('NOT_FOUND')
  })

  test.each([
    ['empty', ''],
    ['65 characters', 'A'.repeat(65)],
    ['a space', 'A0239 '],
    ['a semicolon', 'DAGL;DROP'],
    ['a slash', '../HADM'],
    ['not a string', 42],
  ])('malformed (%s) is VALIDATION_FAILED', (_name, input) => {
    const e = appError(() => portalMigration(input, now))
    expect(e).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    expect(e.options.details![0]!.field).toBe('portal2_code')
  })
})

describe('Altinn II timeline', () => {
  test.each([
    ['2025-11-30T12:00:00Z', 'legacy_only'],
    ['2025-12-01T12:00:00Z', 'parallel_operation'],
    ['2026-05-30T12:00:00Z', 'parallel_operation'],
    ['2026-05-31T12:00:00Z', 'submission_stopped'],
    ['2026-06-18T12:00:00Z', 'submission_stopped'],
    ['2026-06-19T12:00:00Z', 'closed'],
  ])('%s is %s', (iso, phase) => {
    expect(portal2Status(new Date(iso)).phase).toBe(phase as ReturnType<typeof portal2Status>['phase'])
  })

  test('the phase follows the Oslo date: 22:30 UTC on 18 June is 19 June in Oslo, closed', () => {
    expect(portal2Status(new Date('2026-06-18T22:30:00Z'))).toMatchObject({
      phase: 'closed',
      as_of: '2026-06-19',
      days_until_close: 0,
    })
  })

  test('days until close count calendar days from the Oslo date', () => {
    expect(portal2Status(new Date('2026-06-09T10:00:00Z'))).toMatchObject({
      closes_on: '2026-06-19',
      days_until_close: 10,
    })
  })

  test('every answer carries the status for the injected instant', () => {
    expect(portalMigration('HADM', new Date('2026-07-01T10:00:00Z')).portal2_status.phase).toBe('closed')
  })
})

test('every mapped code answers in the published schema', () => {
  for (const code of PORTAL2_CODES) expect(Value.Check(PortalMigrationResult, portalMigration(code, now))).toBe(true)
})
