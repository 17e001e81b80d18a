/**
 * What the government adapters' tests share: the fixture servers' control API, a live token
 * service signed in as the fixtures' demo vendor, and a company that has approved a system user.
 */
import type { SystemUserRef } from '../../src/upstream/token-service/port.ts'
import { createPrivateKey } from 'node:crypto'
import { expect } from 'bun:test'
import type { FixtureServers } from '../../fixtures/servers/index.ts'
import type { Clock } from '../../src/lib/clock.ts'
import { LiveDigitalAgency } from '../../src/upstream/digital-agency/live.ts'
import { UpstreamClient, type UpstreamPolicy } from '../../src/upstream/http.ts'
import { LiveTokenService } from '../../src/upstream/token-service/live.ts'

/** Quick attempts, a breaker that stays closed unless a test asks for one. */
export const FAST: UpstreamPolicy = {
  timeoutMs: 1000,
  attempts: 3,
  backoffMs: 5,
  budgetMs: 3000,
  breakerThreshold: 100,
  breakerOpenMs: 30_000,
}

export async function addFault(base: string, spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${base}/__control/faults`, {
    method: 'POST',
    body: JSON.stringify(spec),
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status).toBe(201)
}

export async function clearFaults(...bases: string[]): Promise<void> {
  for (const base of bases) await fetch(`${base}/__control/faults`, { method: 'DELETE' })
}

export async function clearRequests(...bases: string[]): Promise<void> {
  for (const base of bases) await fetch(`${base}/__control/requests`, { method: 'DELETE' })
}

export async function requestLog(base: string): Promise<{ method: string; path: string; query: string }[]> {
  return (await fetch(`${base}/__control/requests`)).json() as Promise<
    { method: string; path: string; query: string }[]
  >
}

export function tokenService(
  fx: FixtureServers,
  clock: Clock,
  policy: UpstreamPolicy = FAST,
  clientClock: Clock = clock,
): LiveTokenService {
  const g = fx.governmentClient
  return new LiveTokenService(
    { url: fx.tokenServiceUrl, clientId: g.clientId, kid: g.kid, privateKey: createPrivateKey(g.privateKeyPem) },
    new UpstreamClient('Maskinporten', policy, clientClock),
    clock,
  )
}

export function digitalAgency(
  fx: FixtureServers,
  tokens: LiveTokenService,
  clock: Clock,
  policy: UpstreamPolicy = FAST,
): LiveDigitalAgency {
  return new LiveDigitalAgency(
    { platformUrl: fx.filingPortalUrl, systemId: fx.governmentClient.systemId },
    tokens,
    new UpstreamClient('Altinn', policy, clock),
  )
}

/** The organisation's administrator deletes a system user in Altinn (the fixture's control API; vendors cannot). */
export async function deleteSystemUser(fx: FixtureServers, id: string): Promise<void> {
  const res = await fetch(`${fx.filingPortalUrl}/__control/systemusers/${id}`, { method: 'DELETE' })
  expect(res.status).toBe(200)
}

/** The administrator's answer to a pending system-user request, through the Altinn fixture's control API. */
export async function answerSystemUserRequest(
  fx: FixtureServers,
  requestId: string,
  status: 'Accepted' | 'Rejected' | 'Timedout',
): Promise<void> {
  const res = await fetch(`${fx.filingPortalUrl}/__control/systemuser-requests/${requestId}`, {
    method: 'POST',
    body: JSON.stringify({ status }),
    headers: { 'content-type': 'application/json' },
  })
  expect(res.status).toBe(200)
}

export interface AltinnState {
  requests: { id: string; partyOrgNo: string; externalRef: string; status: string }[]
  systemUsers: { id: string; reporteeOrgNo: string; isDeleted: boolean }[]
  instances: {
    id: string
    instanceOwner: { organisationNumber: string }
    dataValues: Record<string, string> | null
    process: { ended: string | null; currentTask: { altinnTaskType: string } | null }
    data: { dataType: string }[]
  }[]
}

export async function altinnState(fx: FixtureServers): Promise<AltinnState> {
  return (await fetch(`${fx.filingPortalUrl}/__control/state`)).json() as Promise<AltinnState>
}

/** A company that has approved a system user for the fixtures' demo system. */
export async function approvedCompany(
  fx: FixtureServers,
  tokens: LiveTokenService,
  clock: Clock,
  org: string,
): Promise<SystemUserRef> {
  const agency = digitalAgency(fx, tokens, clock)
  const externalRef = `test-${org}`
  const req = await agency.requestSystemUser({
    partyOrgNo: org,
    externalRef,
    accessPackages: ['urn:altinn:accesspackage:merverdiavgift'],
  })
  if (req.status === 'New') await answerSystemUserRequest(fx, req.id, 'Accepted')
  return { org, externalRef }
}
