/**
 * What the operator may ask of the scheduled jobs (GET /api/v1/admin/jobs, POST …/{name}/run).
 * jobs/runner.ts implements it; the composition root hands it to the handlers as `deps.jobs`.
 */
import type { TickRow } from '../store/job-ticks.ts'

/** One tick of a job as the operator sees it: the claim row itself. */
export type JobRun = TickRow

export interface JobSummary {
  name: string
  /** `scheduled`: one instance runs each tick; `queue`: every instance, each item claimed on its own */
  kind: 'scheduled' | 'queue'
  /** croner pattern, UTC */
  schedule: string
  every: string
  description: string | null
  /** newest first; a queue job keeps none */
  last_runs: JobRun[]
}

export interface JobOutcome {
  job: string
  kind: 'scheduled' | 'queue'
  /** the tick claimed (a manual run's is the instant it was asked for); null for a queue job */
  tick: string | null
  /** false: another instance holds this tick */
  ran: boolean
  ok: boolean
  result: unknown
  error: string | null
}

export interface JobControl {
  list(): Promise<JobSummary[]>
  /** null: no job has this name */
  runNow(name: string): Promise<JobOutcome | null>
}
