/**
 * The portal's app and storage answers (Altinn 3, reference/flows.md §3) → what the submitter
 * needs: an instance's id, owner, tag, data elements and where its process is. Pure functions; null
 * means "not in the format we know", which the submitter reports as an unreadable acknowledgement.
 */
import { isRecord } from '../../lib/json.ts'

export interface ProcessPosition {
  /** when the process ended (the instance is archived); null while it runs */
  ended: string | null
  /** the current task; null when the process has ended */
  task: { elementId: string; altinnTaskType: string; name: string | null } | null
}

export interface AppInstance {
  /** `partyId/instanceGuid` */
  id: string
  partyId: string
  guid: string
  organisationNumber: string | null
  dataValues: Record<string, string>
  data: { id: string; dataType: string }[]
  process: ProcessPosition
  isSoftDeleted: boolean
  /** the answer as it came, for the receipt */
  raw: Record<string, unknown>
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function mapProcess(body: unknown): ProcessPosition | null {
  if (!isRecord(body)) return null
  const ended = typeof body.ended === 'string' ? body.ended : null
  const current = body.currentTask
  if (current === null || current === undefined) return ended === null ? null : { ended, task: null }
  if (!isRecord(current) || typeof current.elementId !== 'string' || typeof current.altinnTaskType !== 'string')
    return null
  const name = typeof current.name === 'string' ? current.name : null
  return { ended, task: { elementId: current.elementId, altinnTaskType: current.altinnTaskType, name } }
}

export function mapInstance(body: unknown): AppInstance | null {
  if (!isRecord(body) || typeof body.id !== 'string') return null
  const [partyId, guid, ...rest] = body.id.split('/')
  if (!partyId || !/^\d+$/.test(partyId) || !guid || !GUID.test(guid) || rest.length > 0) return null
  const owner = isRecord(body.instanceOwner) ? body.instanceOwner : {}
  const process = mapProcess(body.process)
  if (!process) return null
  if (!Array.isArray(body.data)) return null
  const data: AppInstance['data'] = []
  for (const d of body.data) {
    if (!isRecord(d) || typeof d.id !== 'string' || typeof d.dataType !== 'string') return null
    data.push({ id: d.id, dataType: d.dataType })
  }
  const dataValues: Record<string, string> = {}
  if (isRecord(body.dataValues))
    for (const [k, v] of Object.entries(body.dataValues)) if (typeof v === 'string') dataValues[k] = v
  const status = isRecord(body.status) ? body.status : {}
  return {
    id: body.id,
    partyId,
    guid,
    organisationNumber: typeof owner.organisationNumber === 'string' ? owner.organisationNumber : null,
    dataValues,
    data,
    process,
    isSoftDeleted: status.isSoftDeleted === true,
    raw: body,
  }
}

/** One page of a storage instance query: `{count, instances[], next}`. */
export function mapInstancePage(body: unknown): { instances: AppInstance[]; next: string | null } | null {
  if (!isRecord(body) || !Array.isArray(body.instances)) return null
  const instances: AppInstance[] = []
  for (const raw of body.instances) {
    const i = mapInstance(raw)
    if (!i) return null
    instances.push(i)
  }
  return { instances, next: typeof body.next === 'string' && body.next !== '' ? body.next : null }
}

export function mapFeedbackStatus(body: unknown): { isFeedbackProvided: boolean } | null {
  return isRecord(body) && typeof body.isFeedbackProvided === 'boolean'
    ? { isFeedbackProvided: body.isFeedbackProvided }
    : null
}

/** The exchanged token arrives as the body, bare or as a JSON string. */
export function mapExchangedToken(text: string): string | null {
  const t = text.trim().replace(/^"(.*)"$/, '$1')
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t) ? t : null
}
