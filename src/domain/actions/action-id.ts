/**
 * An action's id is a digest of what would be filed: organisation, action, period and payload.
 * An approval token is bound to an action id, so it approves exactly one filing content; changing
 * any figure after a person confirmed it yields another id and the token no longer matches.
 * Canonical JSON (RFC 8785) makes the id independent of key order and number spelling.
 */
import { canonicalJson } from '../../lib/canonical-json.ts'
import { sha256Hex } from '../../lib/hash.ts'

export interface ActionContent {
  org_number: string
  action_type: string
  period: string
  payload: unknown
}

export const ACTION_ID_PATTERN = /^act_[0-9a-f]{32}$/

/** `act_` and 128 bits of SHA-256; only the four content fields count, extra members are ignored. */
export function actionIdOf(a: ActionContent): string {
  const content = { org_number: a.org_number, action_type: a.action_type, period: a.period, payload: a.payload }
  return `act_${sha256Hex(canonicalJson(content)).slice(0, 32)}`
}
