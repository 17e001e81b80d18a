/**
 * The filing portal (Altinn 3 apps): the instances an organisation has submitted, and submitting a
 * VAT return as a new instance (reference/flows.md §3: create instance, upload the envelope and the
 * return, `process/next` twice, feedback). Both need a system user approved by the company and
 * token-service access; the mock answers deterministically, the live client speaks the app API.
 */
export interface PortalInstance {
  /** `partyId/instanceGuid` */
  id: string
  appId: string
  org: string
  instanceOwner: { partyId: string; organisationNumber: string }
  title: { nb: string; en: string }
  /** when the instance was submitted (process ended), UTC */
  lastChanged: string
  status: { isArchived: boolean; archived: string | null; isSoftDeleted: boolean }
  process: { ended: string | null; currentTask: string | null }
}

export interface FilingPortal {
  /** whether answers are synthetic (labelled so in `_meta.data_source`) */
  readonly mock: boolean
  /** every instance the organisation has submitted, newest first */
  instances(orgNumber: string): Promise<PortalInstance[]>
}

/** A VAT return a person approved and the five checks passed. */
export interface VatFiling {
  org_number: string
  /** our period label: `YYYY-Tn`, `YYYY-A` or `YYYY-MM` */
  period: string
  payload: Record<string, unknown>
  /** `act_…`: the same content always has the same id */
  action_id: string
  /** the caller's Idempotency-Key: the portal instance is tagged with it, so a retry finds the first */
  idempotency_key: string
}

export interface PortalReceipt {
  /** the portal's receipt id; the mock's start with `MOCK-` */
  receipt_id: string
  /** `partyId/instanceGuid` */
  instance_id: string
  /** what the portal answered at the end (instance, feedback), verbatim */
  government_response_raw: Record<string, unknown>
}

export interface FilingSubmitterPort {
  readonly mock: boolean
  /**
   * Files the return within `budgetMs`. Throws GOVERNMENT_VALIDATION_REJECTED (the app refused the
   * return, 409 "Ugyldig mva-melding"), PORTAL_DELEGATION_MISSING (401/403), PORTAL_ACK_UNPARSEABLE
   * (a 2xx we cannot read: never retried), EXECUTION_DEADLINE_EXCEEDED, RETRY_BUDGET_EXHAUSTED,
   * EXECUTION_CIRCUIT_OPEN.
   */
  submitVatReturn(filing: VatFiling, token: string, budgetMs: number): Promise<PortalReceipt>
}
