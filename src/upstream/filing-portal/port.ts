/**
 * The filing portal (Altinn 3): the instances an organisation has submitted. Reading them needs
 * a system user approved by the company and Maskinporten access the service does not have yet,
 * so the only adapter today is the deterministic mock; a live one will implement this interface.
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
