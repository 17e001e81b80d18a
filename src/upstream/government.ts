/**
 * The government systems Plikt acts in on a company's behalf, chosen from configuration: mocks by
 * default (GOVERNMENT_MODE=mock, no credentials), the live clients with GOVERNMENT_MODE=live. One
 * UpstreamClient (so one breaker) per system. The digital agency has no mock here: in mock mode it is
 * null, and the composition root supplies the database-backed mock agency (whose approval page the
 * service itself serves).
 *
 * Wiring (src/app.ts composeDeps):
 *   const gov = buildGovernment(config, clock)
 *   deps.tokenService = gov.tokenService                        // breakerState() for the readiness probe
 *   deps.digitalAgency = gov.digitalAgency ?? <the DB-backed mock agency>
 *   deps.filingSubmitter = gov.filingSubmitter                  // token: tokenService.token({ scope: MVA_SUBMIT_SCOPES, systemUser: { org, externalRef } })
 *   deps.taxAuthority = gov.taxAuthority                        // token: { scope: MVA_VALIDATION_SCOPE, systemUser: { org, externalRef } }
 *   deps.labourRegister = gov.labourRegister                    // token: { scope: LABOUR_REGISTER_SCOPE, systemUser: { org, externalRef } }
 * With UPSTREAM_MODE=fixtures main.ts points the live clients at the government fixture servers.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { ConfigError, missingGovernmentCredentials, type Config } from '../config.ts'
import type { Clock } from '../lib/clock.ts'
import { LiveDigitalAgency, DIGITAL_AGENCY_NAME } from './digital-agency/live.ts'
import type { DigitalAgency } from './digital-agency/port.ts'
import { LiveFilingSubmitter } from './filing-portal/live.ts'
import { mockFilingSubmitter } from './filing-portal/mock-submitter.ts'
import type { FilingSubmitterPort } from './filing-portal/port.ts'
import { READ_POLICY, UpstreamClient } from './http.ts'
import { LABOUR_REGISTER_NAME, LiveLabourRegister } from './labour-register/live.ts'
import { mockLabourRegister } from './labour-register/mock.ts'
import type { LabourRegister } from './labour-register/port.ts'
import { LiveTaxAuthority, TAX_AUTHORITY_NAME } from './tax-authority/live.ts'
import { mockTaxAuthority } from './tax-authority/mock.ts'
import type { TaxAuthority } from './tax-authority/port.ts'
import { LiveTokenService, TOKEN_SERVICE_NAME } from './token-service/live.ts'
import { mockTokenService } from './token-service/mock.ts'
import type { TokenService } from './token-service/port.ts'

export { MVA_SUBMIT_SCOPES } from './filing-portal/live.ts'
export { MVA_VALIDATION_SCOPE } from './tax-authority/live.ts'
export { LABOUR_REGISTER_SCOPE } from './labour-register/live.ts'
export { SYSTEM_USER_SCOPES } from './digital-agency/live.ts'

export interface Government {
  tokenService: TokenService
  /** null in mock mode: the composition root plugs in the database-backed mock agency */
  digitalAgency: DigitalAgency | null
  filingSubmitter: FilingSubmitterPort
  taxAuthority: TaxAuthority
  labourRegister: LabourRegister
}

function privateKey(g: Config['government']): KeyObject {
  let pem: string
  if (g.tokenServiceKeyPem) pem = g.tokenServiceKeyPem
  else {
    try {
      pem = readFileSync(g.tokenServiceKeyFile!, 'utf8')
    } catch (e) {
      throw new ConfigError(
        `TOKEN_SERVICE_KEY_FILE cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}): ${g.tokenServiceKeyFile}`,
      )
    }
  }
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    throw new ConfigError(
      'the Maskinporten key (TOKEN_SERVICE_KEY_PEM or TOKEN_SERVICE_KEY_FILE) is not a PEM private key',
    )
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ConfigError(`the Maskinporten key must be an RSA key (RS256), got ${key.asymmetricKeyType}`)
  return key
}

/** Throws ConfigError when live mode lacks a credential or the key cannot be read. */
export function buildGovernment(
  config: Config,
  clock: Clock,
  watch: (client: UpstreamClient) => void = () => {},
): Government {
  const g = config.government
  if (g.mode === 'mock') {
    return {
      tokenService: mockTokenService(clock),
      digitalAgency: null,
      filingSubmitter: mockFilingSubmitter,
      taxAuthority: mockTaxAuthority,
      labourRegister: mockLabourRegister,
    }
  }
  const missing = missingGovernmentCredentials(g)
  if (missing.length > 0) throw new ConfigError(`GOVERNMENT_MODE=live needs ${missing.join(', ')}`)
  const policy = { ...READ_POLICY, timeoutMs: config.upstreamTimeoutMs }
  const client = (system: string) => {
    const c = new UpstreamClient(system, policy, clock)
    watch(c)
    return c
  }
  const tokenService = new LiveTokenService(
    { url: g.tokenServiceUrl, clientId: g.tokenServiceClientId!, kid: g.tokenServiceKid!, privateKey: privateKey(g) },
    client(TOKEN_SERVICE_NAME),
    clock,
  )
  return {
    tokenService,
    digitalAgency: new LiveDigitalAgency(
      { platformUrl: g.digitalAgencyUrl, systemId: g.digitalAgencySystemId! },
      tokenService,
      client(DIGITAL_AGENCY_NAME),
    ),
    // The filing has a breaker of its own: the VAT app failing must not stop delegation requests.
    filingSubmitter: new LiveFilingSubmitter(
      { appUrl: g.filingPortalVatAppUrl, platformUrl: g.filingPortalUrl },
      client(DIGITAL_AGENCY_NAME),
      clock,
    ),
    taxAuthority: new LiveTaxAuthority(g.taxAuthorityUrl, client(TAX_AUTHORITY_NAME)),
    labourRegister: new LiveLabourRegister(g.labourRegisterUrl, client(LABOUR_REGISTER_NAME)),
  }
}
