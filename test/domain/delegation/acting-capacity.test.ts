/**
 * Acting capacity in the domain: the fnr's control digits and its sealing (HMAC, never echoed),
 * matching role holders by the birth date it encodes, and the action tokens derived from the roles
 * and the registered signature rule. The register is a stub answering in our mapped shapes.
 * Identity numbers were built by hand: DDMMYY, an individual number, control digits worked out
 * with the published weights.
 */
import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { AppError } from '../../../src/errors/app-error.ts'
import { actingCapacity, sealFnr } from '../../../src/domain/delegation/acting-capacity.ts'
import type { CompanyReads, Provenance } from '../../../src/domain/sources.ts'
import type { AuthorityLookup, Role, RegisterUnit } from '../../../src/upstream/business-register/map.ts'
import { FIXTURE_PEOPLE } from '../../helpers.ts'

const KEY = Buffer.alloc(32, 7)

/** Born 12 April 1968 (individual number 234). */
const DAGL_FNR = FIXTURE_PEOPLE.postenGeneralManager
/** The same person's D-number (day + 40). */
const DAGL_D_NUMBER = '52046823435'
/** Born 3 November 1959. */
const LEDE_FNR = FIXTURE_PEOPLE.postenChair
/** Born 19 February 1971. */
const NEST_FNR = FIXTURE_PEOPLE.postenDeputyChair
/** Born 1 January 1980: two board members share the day. */
const TWINS_FNR = '01018000055'
/** Born 14 May 1988. */
const OWNER_FNR = '14058812367'
/** A help number: valid control digits, no birth date. */
const HELP_NUMBER = '87010100052'

/** What `f` threw (an AppError is what every refusal must be), or null when it returned. */
const refused = (f: () => unknown): AppError | null => {
  try {
    f()
    return null
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
}

describe('the fnr is checked: 11 digits, both control digits', () => {
  test('a valid number is accepted', () => {
    expect(() => sealFnr(DAGL_FNR, KEY)).not.toThrow()
  })

  test('a D-number (first digit + 4) with valid control digits is accepted', () => {
    expect(() => sealFnr(DAGL_D_NUMBER, KEY)).not.toThrow()
  })

  test.each(Array.from({ length: 11 }, (_, i) => i))('one wrong digit in position %i is refused', (i) => {
    const d = Number(DAGL_FNR[i])
    const wrong = DAGL_FNR.slice(0, i) + String((d + 1) % 10) + DAGL_FNR.slice(i + 1)
    expect(refused(() => sealFnr(wrong, KEY))?.code).toBe('VALIDATION_FAILED')
  })

  test.each([
    ['10 digits', DAGL_FNR.slice(0, 10)],
    ['12 digits', `${DAGL_FNR}1`],
    ['letters', '1204682344A'],
    ['spaces', '120468 23441'],
    ['empty', ''],
  ])('%s is refused', (_, value) => {
    expect(refused(() => sealFnr(value, KEY))?.code).toBe('VALIDATION_FAILED')
  })

  test('the refusal names the field fnr and carries the number nowhere', () => {
    const wrong = `${DAGL_FNR.slice(0, 10)}0`
    const e = refused(() => sealFnr(wrong, KEY))!
    expect(e.options.details).toEqual([{ field: 'fnr', message: expect.any(String) }])
    expect(JSON.stringify({ message: e.message, options: e.options })).not.toContain(wrong)
  })
})

describe('the fnr is sealed', () => {
  test('its HMAC is HMAC-SHA-256 of the eleven digits under the fnr key, in hex', () => {
    expect(sealFnr(DAGL_FNR, KEY).hmac).toBe(createHmac('sha256', KEY).update(DAGL_FNR).digest('hex'))
  })

  test('another server key gives another HMAC of the same number', () => {
    expect(sealFnr(DAGL_FNR, Buffer.alloc(32, 8)).hmac).not.toBe(sealFnr(DAGL_FNR, KEY).hmac)
  })

  test('what is kept holds the HMAC and the birth date, not the number', () => {
    const sealed = sealFnr(DAGL_FNR, KEY)
    expect(sealed.birth).toEqual({ day: 12, month: 4, yy: 68, year: 1968 })
    expect(JSON.stringify(sealed)).not.toContain(DAGL_FNR)
  })
})

// -- the register, stubbed in our mapped shapes ---------------------------------------------------

const source: Provenance = {
  system: 'enhetsregisteret',
  snapshotId: 'snap',
  fetchedAt: new Date('2026-03-14T09:00:00Z'),
  servedFrom: 'live',
  stale: false,
}
const person = (name: string, birth_date: string) => ({ kind: 'person' as const, name, birth_date, deceased: false })
const role = (group: string, code: string, holder: Role['holder']): Role => ({
  group: { code: group, description: null },
  role: { code, description: `${code} role` },
  holder,
  liability_share: null,
  elected_by: null,
  order: null,
})

const ingrid = person('Ingrid Sætre', '1968-04-12')
const henrik = person('Henrik Aasheim', '1959-11-03')
const marte = person('Marte Lunde', '1971-02-19')
const ola = person('Ola Rønning', '1980-01-01')
const kari = person('Kari Nordby', '1980-01-01')

const AS_ROLES: Role[] = [
  role('DAGL', 'DAGL', ingrid),
  role('STYR', 'LEDE', henrik),
  role('STYR', 'NEST', marte),
  role('STYR', 'MEDL', ola),
  role('STYR', 'MEDL', kari),
  role('REVI', 'REVI', { kind: 'entity', org_number: '997612302', name: 'FJORDREVISJON AS', deleted: false }),
]

const signer = (p: { name: string; birth_date: string }, code: string) => ({
  name: p.name,
  birth_date: p.birth_date,
  role: { code, description: null },
})

/** Chair alone, or the deputy chair with one board member. */
const AS_SIGNATURE: AuthorityLookup = {
  found: true,
  routine_status: 'OK',
  routine_text: null,
  combination_status: 'OK',
  rule_status: 'RF',
  rule_id: 'R0003',
  basis_code: 'SF',
  free_text: null,
  possible_holders: [],
  combinations: [
    {
      id: '1',
      code: 'R0003',
      description: 'Styrets leder alene eller to styremedlemmer i fellesskap.',
      persons: [signer(henrik, 'LEDE')],
    },
    {
      id: '2',
      code: 'R0003',
      description: 'Styrets leder alene eller to styremedlemmer i fellesskap.',
      persons: [signer(marte, 'NEST'), signer(ola, 'MEDL')],
    },
    {
      id: '3',
      code: 'R0003',
      description: 'Styrets leder alene eller to styremedlemmer i fellesskap.',
      persons: [signer(marte, 'NEST'), signer(kari, 'MEDL')],
    },
  ],
}

function register(form: string, roles: Role[], signature: AuthorityLookup | AppError = AS_SIGNATURE): CompanyReads {
  const unit = {
    org_number: '123456785',
    name: 'TESTSELSKAP',
    org_form: { code: form, description: null },
    status: 'active',
  } as RegisterUnit
  return {
    unit: async () => ({ value: { kind: 'found', unit }, source }),
    roles: async () => ({ value: { found: true, roles }, source }),
    signature: async () => {
      if (signature instanceof AppError) throw signature
      return { value: signature, source: { ...source, system: 'fullmakt' } }
    },
  } as unknown as CompanyReads
}

const capacity = async (fnr: string, reads = register('AS', AS_ROLES)) =>
  (await actingCapacity(reads, '123456785', sealFnr(fnr, KEY))).data

describe('matching by the birth date the number encodes', () => {
  test('the general manager matches and gets act_in_daily_management under aksjeloven', async () => {
    const d = await capacity(DAGL_FNR)
    expect(d.matching).toMatchObject({ basis: 'birth_date', persons_matched: 1, ambiguous: false })
    expect(d.roles).toEqual([
      {
        code: 'DAGL',
        register_code: 'DAGL',
        description: 'DAGL role',
        group_code: 'DAGL',
        holder_name: 'Ingrid Sætre',
        elected_by: null,
      },
    ])
    expect(d.actions).toEqual([
      {
        token: 'act_in_daily_management',
        holder_name: 'Ingrid Sætre',
        basis: { kind: 'role', role_code: 'DAGL' },
        description: expect.any(String),
        description_en: expect.any(String),
        legal_reference: 'asl. §§ 6-14, 6-32 (1)',
      },
    ])
  })

  test('the D-number of the same person matches the same role', async () => {
    expect((await capacity(DAGL_D_NUMBER)).roles.map((r) => r.holder_name)).toEqual(['Ingrid Sætre'])
  })

  test('the chair gets the board’s joint representation and, under the signature rule, sign_alone', async () => {
    const d = await capacity(LEDE_FNR)
    expect(d.actions.map((a) => [a.token, a.legal_reference])).toEqual([
      ['sign_with_the_whole_board', 'asl. § 6-30 (1)'],
      ['sign_alone', 'asl. § 6-31; foretaksregisterloven § 10-1'],
    ])
  })

  test('the deputy chair is NEST, the register’s code as authority, verify and profile give it, and signs jointly with one other', async () => {
    const d = await capacity(NEST_FNR)
    expect(d.roles.map((r) => [r.code, r.register_code])).toEqual([['NEST', 'NEST']])
    expect(d.actions.find((a) => a.token === 'sign_jointly')).toMatchObject({
      basis: { kind: 'signature_rule', combinations: 2, co_signers_required: 1 },
    })
  })

  test('the deputy chair’s board action names NEST as the role it comes from', async () => {
    const d = await capacity(NEST_FNR)
    expect(d.actions.find((a) => a.token === 'sign_with_the_whole_board')).toMatchObject({
      basis: { kind: 'role', role_code: 'NEST' },
      legal_reference: 'asl. § 6-30 (1)',
    })
  })

  test('two holders born the same day both match, each role naming its holder, marked ambiguous', async () => {
    const d = await capacity(TWINS_FNR)
    expect(d.matching).toMatchObject({ persons_matched: 2, ambiguous: true })
    expect(d.matching.note_en).toContain('2 role holders')
    expect(d.roles.map((r) => r.holder_name)).toEqual(['Ola Rønning', 'Kari Nordby'])
    expect(d.actions.filter((a) => a.token === 'sign_jointly').map((a) => a.holder_name)).toEqual([
      'Ola Rønning',
      'Kari Nordby',
    ])
  })

  test('a person with no role gets empty lists and a note saying so', async () => {
    const d = await capacity(OWNER_FNR)
    expect(d.matching).toMatchObject({ persons_matched: 0, ambiguous: false })
    expect(d.roles).toEqual([])
    expect(d.actions).toEqual([])
    expect(d.matching.note_en).toContain('no registered role')
  })

  test('a help number encodes no birth date and matches no one, with a note', async () => {
    const d = await capacity(HELP_NUMBER)
    expect(d.matching.persons_matched).toBe(0)
    expect(d.matching.note_en).toContain('encodes no birth date')
  })

  test('an entity holding a role (the auditor firm) never matches a person', async () => {
    const d = await capacity(DAGL_FNR)
    expect(d.roles.some((r) => r.code === 'REVI')).toBe(false)
  })

  test('only the HMAC of the number is in the answer', async () => {
    const d = await capacity(DAGL_FNR)
    expect(d.actor).toEqual({
      fnr_hmac: createHmac('sha256', KEY).update(DAGL_FNR).digest('hex'),
      fnr_hmac_algorithm: 'HMAC-SHA256',
    })
    expect(JSON.stringify(d)).not.toContain(DAGL_FNR)
  })
})

describe('actions by organisation form', () => {
  test('the owner of a sole proprietorship gets act_as_owner under skatteforvaltningsloven', async () => {
    const reads = register('ENK', [role('INNH', 'INNH', person('Tora Vindseth', '1988-05-14'))], {
      ...AS_SIGNATURE,
      routine_status: 'NA',
      combinations: [],
    })
    const d = await capacity(OWNER_FNR, reads)
    expect(d.actions.map((a) => [a.token, a.legal_reference])).toEqual([['act_as_owner', 'sktfvl. §§ 8-2, 8-3']])
    expect(d.signing_rule).toMatchObject({ available: true, covered: false })
  })

  test('the general manager of a partnership acts under selskapsloven', async () => {
    const d = await capacity(
      DAGL_FNR,
      register('ANS', [role('DAGL', 'DAGL', ingrid)], { ...AS_SIGNATURE, combinations: [] }),
    )
    expect(d.actions.map((a) => a.legal_reference)).toEqual(['sel. § 2-21 (3)'])
  })

  test('a role with no statute for the form is listed but yields no action (DAGL of a NUF)', async () => {
    const d = await capacity(
      DAGL_FNR,
      register('NUF', [role('DAGL', 'DAGL', ingrid)], { ...AS_SIGNATURE, combinations: [] }),
    )
    expect(d.roles.map((r) => r.code)).toEqual(['DAGL'])
    expect(d.actions).toEqual([])
  })

  test('a role outside the spec’s vocabulary is listed raw and interpreted not at all (VARA)', async () => {
    const d = await capacity(
      DAGL_FNR,
      register('AS', [role('STYR', 'VARA', ingrid)], { ...AS_SIGNATURE, combinations: [] }),
    )
    expect(d.roles.map((r) => r.code)).toEqual(['VARA'])
    expect(d.actions).toEqual([])
  })
})

describe('the signature rule', () => {
  test('its texts are exposed once each', async () => {
    const d = await capacity(DAGL_FNR)
    expect(d.signing_rule).toEqual({
      available: true,
      covered: true,
      descriptions: ['Styrets leder alene eller to styremedlemmer i fellesskap.'],
      free_text: null,
      error_code: null,
    })
  })

  test('when the lookup fails the answer degrades: the role actions stay, the rule is unavailable with its error', async () => {
    const reads = register('AS', AS_ROLES, new AppError('UPSTREAM_UNAVAILABLE'))
    const d = await capacity(LEDE_FNR, reads)
    expect(d.signing_rule).toEqual({
      available: false,
      covered: null,
      descriptions: [],
      free_text: null,
      error_code: 'UPSTREAM_UNAVAILABLE',
    })
    expect(d.actions.map((a) => a.token)).toEqual(['sign_with_the_whole_board'])
  })
})
