/**
 * The discovery documents an agent reads first: the capabilities document, llms.txt and
 * llms-full.txt, the workflows. Each is a function of the registry, the catalogue and this
 * instance's configuration, so it is built once per instance (per `deps`) and served from memory.
 * The MCP tools list belongs to the MCP surface, which handlers do not import: the composition
 * root hands its summary in.
 */
import { PUBLIC_SANDBOX_ORG } from '../../fixtures/sandbox/companies.ts'
import {
  CAPABILITIES_SCHEMA_VERSION,
  capabilitiesDocument,
  type McpToolsSummary,
} from '../domain/discovery/capabilities.ts'
import { llmsFullTxt, llmsTxt } from '../domain/discovery/llms.ts'
import { workflowsDocument } from '../domain/discovery/workflows.ts'
import { MAGIC_VAT } from '../domain/sandbox/actions.ts'
import { precompute, type PrecomputedData } from '../pipeline/envelope.ts'
import { cachedDocument, jsonDocument, perInstance, type CachedDocument } from '../pipeline/caching.ts'
import type { AppDeps, Handler } from '../pipeline/context.ts'
import { SIMULATED_ERROR_CODES } from '../pipeline/sandbox.ts'
import { SANDBOX_CATALOGUE } from './sandbox/fixtures.ts'
import { hasValidCheckDigit } from '../lib/org-number.ts'

/** A Markdown document (llms.txt, a verification recipe), made and tagged once; its Cache-Control is its operation's. */
export const markdownDocument = (text: string): CachedDocument =>
  cachedDocument(text, { 'content-type': 'text/markdown; charset=utf-8' })

/**
 * The reserved 999000XXX numbers (spec "Capabilities document": these deliberately fail MOD-11), each
 * listed by what the check says of it: the reserved error orgs fail it, while 999000002 (a valid
 * sandbox company, the webhook rehearsal's subject) passes it and is listed apart.
 */
function reservedTestOrgNumbers(orgs: string[]) {
  return {
    pattern: '999000XXX',
    mod11_valid: false,
    org_numbers: orgs.filter((o) => !hasValidCheckDigit(o)),
    mod11_valid_org_numbers: orgs.filter((o) => hasValidCheckDigit(o)),
  }
}

/** The capabilities document's `sandbox` block: the spec's fields, from the sandbox's own catalogue. */
function sandboxBlock(base: string) {
  const c = SANDBOX_CATALOGUE
  return {
    available: true,
    base_url: `${base}/api/v1/sandbox`,
    public_base_url: `${base}${c.public_mirror.base_path}`,
    public_org_number: PUBLIC_SANDBOX_ORG,
    fixtures_url: `${base}/api/v1/sandbox/fixtures`,
    bearer: c.bearer.format,
    reserved_test_org_numbers: reservedTestOrgNumbers([
      ...c.valid_series.flatMap((s) => s.fixtures).filter((o) => o.startsWith('999000')),
      ...c.reserved_error_org_numbers.map((r) => r.org_number),
    ]),
    magic_state_org_numbers: {
      pattern: '999660XXX',
      mod11_valid: true,
      scenarios: c.magic_scenarios.map((m) => ({ org_number: m.org_number, scenario: m.scenario })),
    },
    reserved_error_org_numbers: c.reserved_error_org_numbers,
    simulate_error_param: 'simulate_error',
    supported_error_codes: SIMULATED_ERROR_CODES,
    query_knobs: Object.keys(c.knobs).filter((k) => k !== 'x_service_simulate'),
    header_knobs: { 'X-Service-Simulate': c.knobs.x_service_simulate },
    magic_vat_values: {
      total_revenue_nok: { invalid: MAGIC_VAT.invalid, government_rejects: MAGIC_VAT.governmentRejects },
      details: c.magic_vat_values,
    },
    cors: 'open',
    determinism:
      'The body is byte-equivalent for the same request except `_meta.response_timestamp`; headers such as `X-Correlation-ID` are per request.',
  }
}

interface Built {
  capabilities: PrecomputedData
  llms: CachedDocument
  llmsFull: CachedDocument
  workflows: CachedDocument
}

export function discoveryDocumentHandlers(mcp: McpToolsSummary) {
  const of = perInstance('discovery', (deps: AppDeps): Built => {
    const base = deps.config.baseUrl
    const oauth = deps.config.oauth ? { authorization_servers: [deps.config.oauth.issuer] } : null
    return {
      capabilities: precompute(
        capabilitiesDocument({
          baseUrl: base,
          executeLive: !deps.government.filingSubmitter.mock,
          oauth,
          mcp,
          sandbox: sandboxBlock(base),
        }),
      ),
      llms: markdownDocument(llmsTxt(base)),
      llmsFull: markdownDocument(llmsFullTxt(base)),
      workflows: jsonDocument(workflowsDocument(base)),
    }
  })
  return {
    getCapabilities: (({ deps }) => ({
      data: undefined,
      precomputed: of(deps).capabilities,
      meta: { served_from: 'static', data_freshness: deps.startedAt, schema_version: CAPABILITIES_SCHEMA_VERSION },
    })) satisfies Handler,
    getLlmsTxt: (({ deps }) => ({ data: undefined, document: of(deps).llms })) satisfies Handler,
    getLlmsFullTxt: (({ deps }) => ({ data: undefined, document: of(deps).llmsFull })) satisfies Handler,
    getWorkflows: (({ deps }) => ({ data: undefined, document: of(deps).workflows })) satisfies Handler,
  }
}
