/**
 * What a consumer may do for an organisation, read two ways: the fullmakt state (per agent
 * principal, as recorded — no upstream call) and the authorisation snapshot (pending grants asked
 * about first, then summed up with the delegation chain behind each right).
 */
import { listPrincipalsForOrg } from '../../store/delegations.ts'
import type { DelegationRow } from '../../store/delegations.ts'
import { ACCESS_PACKAGES, planBaseline } from './scopes.ts'
import { activeScopesOf, currentGrants, overallStatus, type DelegationEnv, type OverallStatus } from './fullmakt.ts'

const STEPS_NONE = [
  'Be om fullmakt med POST /api/v1/fullmakt/request (eller verktøyet «request_fullmakt») for virksomheten og tilgangene agenten trenger.',
  'Send lenken i «delegation_url» til en person med signaturrett i virksomheten, for eksempel daglig leder.',
  'Når vedkommende har godkjent, viser GET /api/v1/auth/permissions/{org} status «full» eller «partial».',
]

function fixSteps(status: OverallStatus, pending: readonly DelegationRow[], missing: readonly string[]): string[] {
  const steps: string[] = []
  if (pending.length > 0) {
    steps.push(
      'En forespørsel om fullmakt venter på godkjenning: send lenken i «delegation_url» til en person med signaturrett i virksomheten.',
    )
  }
  if (status === 'none' && pending.length === 0) return [...STEPS_NONE]
  if (missing.length > 0) {
    steps.push(
      `Tilgangene ${missing.join(', ')} er ikke delegert. Be om fullmakt for dem med en ny agent_principal_id.`,
    )
  }
  return steps
}

export async function fullmaktState(env: DelegationEnv, org: string) {
  const principals = await listPrincipalsForOrg(env.sql, env.consumerId, org)
  const grants = await currentGrants(env, org, false)
  const baseline = planBaseline(env.plan)
  const open = grants.filter((g) => g.status === 'active' || g.status === 'pending')
  const active = activeScopesOf(open)
  const status = overallStatus(active, baseline)
  const missing = baseline.filter((s) => !active.includes(s))
  return {
    org_number: org,
    overall_status: status,
    principals: principals
      .filter((p) => p.state !== 'revoked')
      .flatMap((p) => {
        const g = open.find((x) => x.principal_id === p.id)
        if (!g) return []
        return [
          {
            agent_principal_id: p.id,
            principal_state: p.state,
            system_user_id: p.system_user_id,
            delegation_id: g.id,
            delegation: g.status as 'active' | 'pending',
            delegation_url: g.status === 'pending' ? g.delegation_url : null,
            scopes: g.scopes,
            missing_scopes: baseline.filter((s) => !g.scopes.includes(s)),
            since: (g.activated_at ?? g.created_at).toISOString(),
          },
        ]
      }),
    fix_steps: fixSteps(
      status,
      open.filter((g) => g.status === 'pending'),
      missing,
    ),
  }
}

export async function permissionsSnapshot(env: DelegationEnv, org: string) {
  const grants = await currentGrants(env, org, true)
  const baseline = planBaseline(env.plan)
  const active = grants.filter((g) => g.status === 'active')
  const activeScopes = activeScopesOf(active)
  const status = overallStatus(activeScopes, baseline)
  return {
    org_number: org,
    status,
    active_scopes: activeScopes,
    missing_scopes: status === 'full' ? [] : baseline.filter((s) => !activeScopes.includes(s)),
    delegated_rights: active.map((g) => ({
      delegation_id: g.id,
      agent_principal_id: g.principal_id,
      system_user_id: g.system_user_id,
      scopes: g.scopes,
      access_packages: g.scopes.map((s) => ACCESS_PACKAGES[s] ?? s),
      since: (g.activated_at ?? g.created_at).toISOString(),
    })),
    pending_delegations: grants
      .filter((g) => g.status === 'pending' || g.status === 'requesting')
      .map((g) => ({
        delegation_id: g.id,
        agent_principal_id: g.principal_id,
        scopes: g.scopes,
        delegation_url: g.delegation_url,
        requested_at: g.created_at.toISOString(),
      })),
    // One chain per active right: who holds it, through which system user, for which organisation.
    breadcrumbs: active.map((g) => [
      { kind: 'consumer' as const, id: env.consumerId },
      { kind: 'agent_principal' as const, id: g.principal_id },
      { kind: 'system_user' as const, id: g.system_user_id },
      { kind: 'organisation' as const, id: org },
    ]),
    tier_baseline: baseline,
  }
}
