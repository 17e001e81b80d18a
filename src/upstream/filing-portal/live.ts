/**
 * Filing a VAT return in the portal's VAT app over real HTTP (Altinn 3, reference/flows.md §3):
 * exchange the token-service token for a portal token; find this filing's instance or create one;
 * upload the envelope and the return; `process/next` through confirmation to feedback; read the
 * feedback status; the receipt.
 *
 * One filing, one instance. The instance is tagged with a digest of (organisation, idempotency
 * key) in its `dataValues` right after it is created, and looked up by that tag (storage query,
 * instances of the last 24 hours, the idempotency window) before anything is created, so a retry of
 * the same filing resumes the first instance wherever it stopped, and one that was submitted is
 * only read. The one gap: an instance whose creation answer is lost, or whose tag cannot be
 * written, stays an untagged draft that nothing ever submits; the retry files a new one.
 *
 * The process is driven by where it is, not by a fixed list of calls: a `process/next` or an upload
 * whose answer is lost is not repeated blindly (that could move the process twice or add a second
 * return); the instance is read again and the step is tried again only if it did not happen.
 * Reads and idempotent writes are retried by the UpstreamClient. Everything happens within the
 * caller's budget: each call gets what is left of it.
 *
 * Errors: 401/403 → PORTAL_DELEGATION_MISSING; 409 from `process/next` (the app validates the
 * return, "Ugyldig mva-melding") → GOVERNMENT_VALIDATION_REJECTED with the validation result;
 * a 2xx we cannot read → PORTAL_ACK_UNPARSEABLE, never retried; the budget spent →
 * EXECUTION_DEADLINE_EXCEEDED; three failed attempts at one step → RETRY_BUDGET_EXHAUSTED, or
 * GOVERNMENT_UNAVAILABLE when the portal said so (503) each time; the breaker open →
 * EXECUTION_CIRCUIT_OPEN; any other refusal → GOVERNMENT_API_ERROR. Two outcomes are not failures
 * of a step but of what is known: a filing that ends (budget, attempts, breaker) while a move or an
 * upload it sent has no answer and no read has confirmed it is EXECUTION_TIMEOUT — the return may
 * have arrived, and only reconciling tells; a process that stops at a task only a person can do in
 * the portal (`signing`, `payment`: Altinn's task types) is FOLLOWUP_REQUIRED, naming the task and
 * the instance in `outcome.followup_action`. A retry with the same idempotency key resumes the same
 * instance either way.
 */
import { AppError } from '../../errors/app-error.ts'
import { canonicalJson } from '../../lib/canonical-json.ts'
import type { Clock } from '../../lib/clock.ts'
import { sha256Hex } from '../../lib/hash.ts'
import { isRecord, tryParseJson } from '../../lib/json.ts'
import { UpstreamGaveUp, type CallLimits, type UpstreamClient, type UpstreamResponse } from '../http.ts'
import { mapValideringsresultat } from '../tax-authority/map.ts'
import {
  konvoluttXml,
  meldingOf,
  MVA_MELDING_FILENAME,
  mvaMeldingXml,
  REGNSKAPSSYSTEM,
  type MvaMelding,
} from '../tax-authority/mva-melding.ts'
import {
  mapExchangedToken,
  mapFeedbackStatus,
  mapInstance,
  mapInstancePage,
  mapProcess,
  type AppInstance,
} from './map.ts'
import type { FilingSubmitterPort, PortalReceipt, VatFiling } from './port.ts'

export const FILING_PORTAL_NAME = 'Altinn'
/** The token-service scopes a filing's (system-user) token needs. */
export const MVA_SUBMIT_SCOPES = 'altinn:instances.read altinn:instances.write'

/** The `dataValues` key the instance is tagged with. */
export const FILING_TAG = 'pliktFiling'
export const KONVOLUTT_DATATYPE_PREFIX = 'no.skatteetaten.fastsetting.avgift.mva.mvameldinginnsending'
export const MVA_MELDING_DATATYPE = 'mvamelding'

/** Tries at one step whose failure was transient (spec: at most three attempts). */
const MAX_ATTEMPTS = 3
/** Instances older than the idempotency window cannot be a retry of this filing. */
const LOOKBACK_MS = 24 * 3600_000
/** Pages of a storage query followed when looking for the tag. */
const MAX_PAGES = 5
/** Data, confirmation, feedback: a process that has not reached feedback after this many moves is not the one we know. */
const MAX_MOVES = 4

export interface FilingPortalConfig {
  /** the VAT app, e.g. https://skd.apps.altinn.no/skd/mva-melding-innsending-v1, no trailing slash */
  appUrl: string
  /** e.g. https://platform.altinn.no: the token exchange and the storage query */
  platformUrl: string
}

/** The tag of a filing: the same organisation and idempotency key always give the same one. */
export function filingTag(org: string, idempotencyKey: string): string {
  return sha256Hex(canonicalJson(['plikt-filing', org, idempotencyKey])).slice(0, 32)
}

/** The portal's reference for a submission: the last group of the instance guid, as its receipts print it. */
export function receiptIdOf(instance: { guid: string }): string {
  return instance.guid.split('-')[4]!
}

const context = { upstream_system: FILING_PORTAL_NAME }

type Stage = 'fill' | 'confirm' | 'person' | 'done'

/** Altinn app task types our system user cannot complete: a person does them in the portal. */
const PERSON_TASKS = new Set(['signing', 'payment'])

/** The codes that end a filing without an answer about what it changed. */
const ENDED_UNANSWERED = new Set(['EXECUTION_DEADLINE_EXCEEDED', 'RETRY_BUDGET_EXHAUSTED', 'EXECUTION_CIRCUIT_OPEN'])

export class LiveFilingSubmitter implements FilingSubmitterPort {
  readonly mock = false
  private readonly appId: string

  constructor(
    private readonly config: FilingPortalConfig,
    private readonly client: UpstreamClient,
    private readonly clock: Clock,
  ) {
    this.appId = new URL(config.appUrl).pathname.split('/').filter(Boolean).slice(-2).join('/')
  }

  submitVatReturn(filing: VatFiling, token: string, budgetMs: number): Promise<PortalReceipt> {
    return new Filing(
      this.config,
      this.appId,
      this.client,
      this.clock,
      filing,
      token,
      this.clock.now().getTime() + budgetMs,
    ).run()
  }
}

/** One submission's state: its deadline, the portal token, the melding. */
class Filing {
  private portalToken = ''
  private readonly melding: MvaMelding
  private readonly tag: string
  /** a move or an upload that was sent and not answered, until a read says whether it happened */
  private unanswered: { step: string; instance: string } | null = null

  constructor(
    private readonly config: FilingPortalConfig,
    private readonly appId: string,
    private readonly client: UpstreamClient,
    private readonly clock: Clock,
    private readonly filing: VatFiling,
    private readonly token: string,
    private readonly deadline: number,
  ) {
    this.melding = meldingOf({ org_number: filing.org_number, period: filing.period, payload: filing.payload })
    this.tag = filingTag(filing.org_number, filing.idempotency_key)
  }

  async run(): Promise<PortalReceipt> {
    try {
      return await this.steps()
    } catch (e) {
      if (this.unanswered && e instanceof AppError && ENDED_UNANSWERED.has(e.code)) throw this.outcomeUnknown(e)
      throw e
    }
  }

  private async steps(): Promise<PortalReceipt> {
    this.portalToken = await this.exchange()
    let instance = (await this.find()) ?? (await this.create())
    for (let move = 0; move < MAX_MOVES; move++) {
      const stage = this.stageOf(instance)
      if (stage === 'done') return this.receipt(instance)
      if (stage === 'person') throw this.followUp(instance)
      if (stage === 'fill') instance = await this.upload(instance)
      instance = await this.next(instance)
    }
    throw this.unreadable('process')
  }

  // ── calls ────────────────────────────────────────────────────────────────────────────────────

  /** A call within what is left of the budget; an open breaker or a spent budget ends the filing. */
  private async call(url: string, init: RequestInit, limits: CallLimits = {}): Promise<UpstreamResponse> {
    const left = this.deadline - this.clock.now().getTime()
    if (left <= 0) throw this.deadlineExceeded()
    try {
      return await this.client.request(url, init, { ...limits, budgetMs: left })
    } catch (e) {
      if (e instanceof UpstreamGaveUp && e.reason === 'circuit') {
        throw new AppError('EXECUTION_CIRCUIT_OPEN', {
          context,
          headers: e.options.headers ?? {},
          extra: { upstream_system: FILING_PORTAL_NAME },
          cause: e,
        })
      }
      if (e instanceof UpstreamGaveUp && e.reason === 'budget') throw this.deadlineExceeded(e)
      throw e
    }
  }

  /** A read or an idempotent write: retried by the client; when its attempts are spent, so is the filing's. */
  private async retried(url: string, init: RequestInit): Promise<UpstreamResponse> {
    try {
      return await this.call(url, init)
    } catch (e) {
      if (e instanceof UpstreamGaveUp) throw this.exhausted(e)
      throw e
    }
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.portalToken}`, accept: 'application/json', ...extra }
  }

  private instanceUrl(i: AppInstance): string {
    return `${this.config.appUrl}/instances/${i.partyId}/${i.guid}`
  }

  // ── steps ────────────────────────────────────────────────────────────────────────────────────

  private async exchange(): Promise<string> {
    const res = await this.retried(`${this.config.platformUrl}/authentication/api/v1/exchange/maskinporten`, {
      headers: { authorization: `Bearer ${this.token}` },
    })
    if (res.status !== 200) throw this.refusal(res, 'exchange')
    const token = mapExchangedToken(res.text)
    // Nothing has been sent yet, so an unreadable token is the portal's error, not an unknown outcome.
    if (!token)
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: FILING_PORTAL_NAME, reason: 'unreadable answer', step: 'exchange' },
      })
    return token
  }

  /** This filing's instance, if an earlier attempt created it. */
  private async find(): Promise<AppInstance | null> {
    const since = new Date(this.clock.now().getTime() - LOOKBACK_MS).toISOString()
    const q = new URLSearchParams({ appId: this.appId, created: `gte:${since}`, 'status.isSoftDeleted': 'false' })
    let url: string | null = `${this.config.platformUrl}/storage/api/v1/instances?${q}`
    for (let page = 0; url !== null && page < MAX_PAGES; page++) {
      const res = await this.retried(url, {
        headers: this.headers({ 'x-ai-instanceowneridentifier': `Organisation:${this.filing.org_number}` }),
      })
      if (res.status !== 200) throw this.refusal(res, 'find')
      const found = mapInstancePage(tryParseJson(res.text))
      if (!found) throw this.unreadable('find')
      const mine = found.instances.find((i) => i.dataValues[FILING_TAG] === this.tag && !i.isSoftDeleted)
      if (mine) return mine
      // Only the platform's own continuation links are followed.
      url = found.next !== null && found.next.startsWith(`${this.config.platformUrl}/`) ? found.next : null
    }
    return null
  }

  private async create(): Promise<AppInstance> {
    const res = await this.retried(`${this.config.appUrl}/instances`, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ instanceOwner: { organisationNumber: this.filing.org_number } }),
    })
    if (res.status !== 201 && res.status !== 200) throw this.refusal(res, 'create')
    const instance = mapInstance(tryParseJson(res.text))
    if (!instance) throw this.unreadable('create')
    const tagged = await this.retried(`${this.instanceUrl(instance)}/datavalues`, {
      method: 'PUT',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ values: { [FILING_TAG]: this.tag } }),
    })
    if (tagged.status !== 200) throw this.refusal(tagged, 'tag')
    return { ...instance, dataValues: { ...instance.dataValues, [FILING_TAG]: this.tag } }
  }

  private async read(i: AppInstance): Promise<AppInstance> {
    const res = await this.retried(this.instanceUrl(i), { headers: this.headers() })
    if (res.status !== 200) throw this.refusal(res, 'read')
    const fresh = mapInstance(tryParseJson(res.text))
    if (!fresh) throw this.unreadable('read')
    return fresh
  }

  private stageOf(i: AppInstance): Stage {
    if (i.process.task === null) return 'done'
    switch (i.process.task.altinnTaskType) {
      case 'data':
        return 'fill'
      case 'confirmation':
        return 'confirm'
      case 'feedback':
        return 'done'
      default:
        if (PERSON_TASKS.has(i.process.task.altinnTaskType)) return 'person'
        throw this.unreadable('process')
    }
  }

  /**
   * The envelope replaces the pre-made one (PUT: safe to repeat); the return is added once. A
   * failed add is checked against the instance before it is tried again.
   */
  private async upload(i: AppInstance): Promise<AppInstance> {
    const konvolutt = i.data.find((d) => d.dataType.startsWith(KONVOLUTT_DATATYPE_PREFIX))
    if (!konvolutt) throw this.unreadable('upload')
    const envelope = konvoluttXml(this.melding, REGNSKAPSSYSTEM.systemnavn, this.clock.now())
    const put = await this.retried(`${this.instanceUrl(i)}/data/${konvolutt.id}`, {
      method: 'PUT',
      headers: this.headers({ 'content-type': 'application/xml' }),
      body: envelope,
    })
    if (put.status !== 200 && put.status !== 201) throw this.refusal(put, 'upload')
    const melding = mvaMeldingXml(this.melding, this.filing.action_id)
    let current = i
    for (let attempt = 1; ; attempt++) {
      if (current.data.some((d) => d.dataType === MVA_MELDING_DATATYPE)) return current
      try {
        const res = await this.call(
          `${this.instanceUrl(i)}/data?datatype=${MVA_MELDING_DATATYPE}`,
          {
            method: 'POST',
            headers: this.headers({
              'content-type': 'text/xml',
              'content-disposition': `attachment; filename=${MVA_MELDING_FILENAME}`,
            }),
            body: melding,
          },
          { attempts: 1 },
        )
        if (res.status !== 201 && res.status !== 200) throw this.refusal(res, 'upload')
        return this.read(i)
      } catch (e) {
        if (!(e instanceof UpstreamGaveUp)) throw e
        // No status at all (a timeout, a reset): it may have happened. A status is an answer.
        if (e.options.extra?.upstream_status === undefined) this.unanswered = { step: 'upload', instance: i.id }
        if (attempt >= MAX_ATTEMPTS) throw this.exhausted(e, attempt)
        current = await this.read(i)
        this.unanswered = null
      }
    }
  }

  /** One move of the process; a move whose answer was lost is confirmed by reading, not by moving again. */
  private async next(i: AppInstance): Promise<AppInstance> {
    const before = JSON.stringify(i.process)
    for (let attempt = 1; ; attempt++) {
      try {
        // keepalive off: on a reset pooled connection the runtime re-sends a PUT by itself (it is
        // idempotent in HTTP's book, not in the portal's), which could move the process twice.
        const res = await this.call(
          `${this.instanceUrl(i)}/process/next`,
          { method: 'PUT', headers: this.headers({ 'content-type': 'application/json' }), body: '', keepalive: false },
          { attempts: 1 },
        )
        if (res.status === 409) throw this.rejected(res)
        if (res.status !== 200) throw this.refusal(res, 'process/next')
        const process = mapProcess(tryParseJson(res.text))
        if (!process) throw this.unreadable('process/next')
        return { ...i, process }
      } catch (e) {
        if (!(e instanceof UpstreamGaveUp)) throw e
        // No status at all (a timeout, a reset): it may have happened. A status is an answer.
        if (e.options.extra?.upstream_status === undefined) this.unanswered = { step: 'process/next', instance: i.id }
        if (attempt >= MAX_ATTEMPTS) throw this.exhausted(e, attempt)
        const now = await this.read(i)
        this.unanswered = null
        if (JSON.stringify(now.process) !== before) return now
      }
    }
  }

  private async receipt(i: AppInstance): Promise<PortalReceipt> {
    const res = await this.retried(`${this.instanceUrl(i)}/feedback/status`, { headers: this.headers() })
    if (res.status !== 200) throw this.refusal(res, 'feedback')
    const feedback = tryParseJson(res.text)
    const status = mapFeedbackStatus(feedback)
    if (!status) throw this.unreadable('feedback')
    // Once the tax authority has answered, the instance carries its documents and the process has ended.
    const final = status.isFeedbackProvided ? await this.read(i) : i
    return {
      receipt_id: receiptIdOf(final),
      instance_id: final.id,
      government_response_raw: { instance: final.raw, feedback: feedback as Record<string, unknown> },
    }
  }

  // ── errors ───────────────────────────────────────────────────────────────────────────────────

  private deadlineExceeded(cause?: unknown): AppError {
    return new AppError('EXECUTION_DEADLINE_EXCEEDED', {
      context,
      extra: { upstream_system: FILING_PORTAL_NAME },
      cause,
    })
  }

  private exhausted(e: UpstreamGaveUp, attempts = e.attempts): AppError {
    // The portal said it is down (503) at every attempt, and nothing of ours is in doubt.
    if (!this.unanswered && e.options.extra?.upstream_status === 503) {
      return new AppError('GOVERNMENT_UNAVAILABLE', {
        context,
        extra: { upstream_system: FILING_PORTAL_NAME, upstream_status: 503, attempts },
        cause: e,
      })
    }
    return new AppError('RETRY_BUDGET_EXHAUSTED', {
      context,
      extra: { upstream_system: FILING_PORTAL_NAME, attempts, last_error: e.code },
      cause: e,
    })
  }

  /** The filing ended while a write of ours had no answer: whether the return arrived is unknown. */
  private outcomeUnknown(e: AppError): AppError {
    return new AppError('EXECUTION_TIMEOUT', {
      context,
      extra: {
        upstream_system: FILING_PORTAL_NAME,
        outcome: {
          status: 'unknown',
          step: this.unanswered!.step,
          instance_id: this.unanswered!.instance,
          ended_by: e.code,
        },
      },
      cause: e,
    })
  }

  /** The process waits for a person in the portal: the instance is filled and stays in the organisation's inbox. */
  private followUp(i: AppInstance): AppError {
    const task = i.process.task!
    const step = task.name ?? task.elementId
    return new AppError('FOLLOWUP_REQUIRED', {
      context,
      extra: {
        upstream_system: FILING_PORTAL_NAME,
        outcome: {
          status: 'awaiting_person',
          instance_id: i.id,
          followup_action: {
            who: 'portal_user',
            where: 'Altinn → Innboks',
            task: task.altinnTaskType,
            task_name: step,
            what: `Fullfør steget «${step}» (${task.altinnTaskType}) i mva-meldingen i Altinn-innboksen til virksomheten.`,
            what_en: `Complete the step "${step}" (${task.altinnTaskType}) of the VAT return in the organisation's Altinn inbox.`,
          },
        },
      },
    })
  }

  private unreadable(step: string): AppError {
    return new AppError('PORTAL_ACK_UNPARSEABLE', { context, extra: { upstream_system: FILING_PORTAL_NAME, step } })
  }

  /** The app's validation refused the return: its result is the body (XML), or a problem's detail. */
  private rejected(res: UpstreamResponse): AppError {
    const result = mapValideringsresultat(res.text)
    const problem = tryParseJson(res.text)
    const detail = isRecord(problem) && typeof problem.detail === 'string' ? problem.detail : null
    return new AppError('GOVERNMENT_VALIDATION_REJECTED', {
      context,
      extra: {
        upstream: {
          system: FILING_PORTAL_NAME,
          http_status: res.status,
          ...(result ? { valideringsresultat: result } : {}),
          ...(detail ? { detail } : {}),
        },
      },
    })
  }

  private refusal(res: UpstreamResponse, step: string): AppError {
    if (res.status === 401 || res.status === 403) {
      return new AppError('PORTAL_DELEGATION_MISSING', {
        context: { org_number: this.filing.org_number },
        extra: { upstream_system: FILING_PORTAL_NAME, upstream_status: res.status, step },
      })
    }
    return new AppError('GOVERNMENT_API_ERROR', {
      context,
      extra: { upstream_system: FILING_PORTAL_NAME, upstream_status: res.status, step },
    })
  }
}
