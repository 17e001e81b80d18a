/** `GET /api/v1/sandbox/fixtures`: everything an agent builder can rehearse with, in one document. */
import { PUBLIC_SANDBOX_ORG, RESERVED_ERROR_ORGS, SANDBOX_COMPANIES } from '../../../fixtures/sandbox/companies.ts'
import { MAGIC_VAT } from '../../domain/sandbox/actions.ts'
import { tierOf } from '../../domain/sandbox/views.ts'
import { SANDBOX_SERIES } from '../../domain/sandbox/synthetic.ts'
import { SIMULATED_ERRORS } from '../../schemas/sandbox.ts'
import type * as S from '../../schemas/sandbox.ts'
import type { Handler } from '../../pipeline/context.ts'
import { SANDBOX_PINNED, SANDBOX_TODAY, SERVICE_SIMULATIONS } from '../../pipeline/sandbox.ts'
import { prelude } from './prelude.ts'

const company = (c: (typeof SANDBOX_COMPANIES)[number]) => ({
  org_number: c.org_number,
  name: c.name,
  entity_type: c.entity_type,
  data_tier: tierOf(c),
  status: c.status,
  system_user_authorised: c.delegation.system_user,
  delegated_scopes: c.delegation.scopes,
  description_nb: c.description_nb,
  description_en: c.description_en,
})

/** Each valid series: its numbers, the hand-written companies in it, and what the rest answer with. */
const series = (prefix: string) => {
  const free = 9 - prefix.length
  return {
    prefix,
    pattern: free === 0 ? `^${prefix}$` : `^${prefix}[0-9]{${free}}$`,
    size: 10 ** free,
    fixtures: SANDBOX_COMPANIES.filter((c) => c.org_number.startsWith(prefix)).map((c) => c.org_number),
    other_numbers: free === 0 ? null : ('synthetic' as const),
  }
}

/** Built once: the catalogue is a constant of the code (the capabilities document's `sandbox` block quotes it). */
export const SANDBOX_CATALOGUE = {
  companies: SANDBOX_COMPANIES.filter((c) => c.scenario === null).map(company),
  magic_scenarios: SANDBOX_COMPANIES.filter((c) => c.scenario !== null).map((c) => ({
    scenario: c.scenario,
    ...company(c),
  })),
  reserved_error_org_numbers: Object.entries(RESERVED_ERROR_ORGS).map(([org_number, error_code]) => ({
    org_number,
    error_code,
  })),
  valid_series: SANDBOX_SERIES.map(series),
  synthetic_companies: {
    description_en:
      'Every nine-digit number of a valid series that is not listed here answers on every sandbox company route (context, obligations, deadlines, summary, audit, verify, authority, accounts, and plan, approval token and execute) with a synthetic company generated from the number: the same number always gives the same company. It is an ordinary active AS or ENK with consistent roles, signing rule, accounts and VAT registration; about half have a delegation (data_tier tier_1_2, a system user with every scope), the rest are Tier 1 only. A 999660XXX number without a scenario here is such an ordinary company, not a magic state. Numbers outside the series and this list answer 404 COMPANY_NOT_FOUND on reads and 400 VALIDATION_FAILED on the write side.',
    description_nb:
      'Alle nisifrede numre i en gyldig serie som ikke står her, svarer på alle selskapsrutene i sandkassen (context, obligations, deadlines, summary, audit, verify, authority, accounts, og plan, approval token og execute) med et syntetisk selskap laget fra nummeret: samme nummer gir alltid samme selskap. Det er et vanlig, aktivt AS eller ENK med samsvarende roller, signaturregel, regnskap og mva-registrering; om lag halvparten har en delegering (data_tier tier_1_2, en systembruker med alle tilganger), resten bare Tier 1. Et 999660XXX-nummer uten scenario her er et slikt vanlig selskap, ikke en magisk tilstand. Numre utenfor seriene og denne listen gir 404 COMPANY_NOT_FOUND ved lesing og 400 VALIDATION_FAILED på skrivesiden.',
  },
  public_mirror: {
    base_path: '/api/v1/sandbox/public',
    org_number: PUBLIC_SANDBOX_ORG,
    post_body_limit_bytes: 32 * 1024,
  },
  pinned: { data_as_of: SANDBOX_PINNED, today: SANDBOX_TODAY },
  bearer: {
    format: 'svc_sandbox_test_<suffix>',
    suffix_pattern: '^[A-Za-z0-9_-]{1,64}$',
    note_en:
      'Optional. Use a unique random suffix per agent session: it namespaces your approval tokens and audit rows. Needed for as_of and X-Service-Simulate.',
  },
  knobs: {
    simulate_error: SIMULATED_ERRORS,
    simulate_latency: { minimum_ms: 0, maximum_ms: 30000 },
    mock_date: 'YYYY-MM-DD (Europe/Oslo): the date the sandbox takes as today',
    as_of: 'YYYY-MM-DD on obligations, deadlines and summary; echoed in _meta.as_of; synthetic bearer only',
    x_service_simulate: Object.fromEntries(Object.entries(SERVICE_SIMULATIONS).map(([value, code]) => [value, code])),
  },
  magic_vat_values: [
    { field: 'payload.total_revenue_nok', value: MAGIC_VAT.invalid, answer: '400 VALIDATION_FAILED' },
    {
      field: 'payload.total_revenue_nok',
      value: MAGIC_VAT.governmentRejects,
      answer: '422 GOVERNMENT_VALIDATION_REJECTED (live execute; the approval token is consumed)',
    },
    {
      field: 'payload.period',
      value: 'YYYY-MM before the effective month',
      answer: '200 with filed_late: true (mva_melding, live execute)',
    },
  ],
}

export const sandboxFixtureHandlers = {
  getSandboxFixtures: (async (ctx) => {
    await prelude(ctx)
    return { data: SANDBOX_CATALOGUE }
  }) satisfies Handler<{ query: typeof S.KnobsQuery }>,
}
