/**
 * The delegate route (`POST /api/v1/auth/system-user/delegate`) acts through principals of its own,
 * one at a time per consumer and organisation, which the caller never names (spec: "Delegation |
 * (none) | delegate or fullmakt request | portal returns a `delegation_url` | pending"). A revoked
 * principal is terminal ("new principal needed"), so the route never dead-ends on one:
 * - the route's principals are numbered generations (uuid v5 of consumer, organisation and the
 *   generation; generation 0 keeps the id the route always used);
 * - a revoked generation is passed over: the call makes the next one, the revoked stays revoked;
 * - a call asking for scopes the current generation's open delegation already covers is that
 *   delegation (a retry, or a narrower ask);
 * - a call asking for more makes the next generation with the union of both, so the organisation
 *   is asked once for everything; the earlier delegation keeps working until it is revoked.
 */
import { uuidV5 } from '../../lib/uuid-v5.ts'
import type { Sql } from '../../store/db.ts'
import { grantsOfPrincipal, listPrincipalsForOrg } from '../../store/delegations.ts'

/** The route's principal namespace (uuid v5): generation 0 is the id it has always used. */
const DELEGATE_PRINCIPAL_NAMESPACE = '6f1d3c1e-2b8a-5e47-8c1d-9a0e4b7f2c35'

/** Past this many generations something is wrong (each needs a revoke or a wider ask). */
const MAX_GENERATIONS = 1000

export function delegatePrincipalId(consumerId: string, org: string, generation: number): string {
  return uuidV5(
    generation === 0 ? `${consumerId}:${org}` : `${consumerId}:${org}:${generation}`,
    DELEGATE_PRINCIPAL_NAMESPACE,
  )
}

/** Which principal a delegate call acts through, and the scopes it asks for (see the header). */
export async function delegateTarget(
  sql: Sql,
  consumerId: string,
  org: string,
  scopes: string[],
): Promise<{ principalId: string; scopes: string[] }> {
  const principals = new Map((await listPrincipalsForOrg(sql, consumerId, org)).map((p) => [p.id, p]))
  const wanted = [...new Set(scopes)].sort()
  // The generations made so far run up to the first id that does not exist; the newest one still
  // live (not revoked, its delegation open) is the route's current principal.
  let current: { id: string; scopes: string[] } | null = null
  let g = 0
  for (; g < MAX_GENERATIONS; g++) {
    const id = delegatePrincipalId(consumerId, org, g)
    const p = principals.get(id)
    if (!p) break
    if (p.state === 'revoked') continue
    const open = (await grantsOfPrincipal(sql, consumerId, id))
      .filter((d) => !d.revoked && (d.status === 'requesting' || d.status === 'pending' || d.status === 'active'))
      .at(-1)
    current = { id, scopes: open ? [...open.scopes].sort() : wanted }
  }
  if (g === MAX_GENERATIONS)
    throw new Error(`delegateTarget: more than ${MAX_GENERATIONS} delegate principals for one organisation`)
  const next = delegatePrincipalId(consumerId, org, g)
  if (!current) return { principalId: next, scopes: wanted }
  if (wanted.every((s) => current.scopes.includes(s))) return { principalId: current.id, scopes: current.scopes }
  return { principalId: next, scopes: [...new Set([...current.scopes, ...wanted])].sort() }
}
