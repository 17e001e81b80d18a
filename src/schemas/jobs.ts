/** The operator's view of the scheduled jobs. */
import { Type } from '@sinclair/typebox'

const JobRun = Type.Object({
  tick: Type.String({ format: 'date-time' }),
  claimed_by: Type.String({ description: 'host/pid/instance that ran it' }),
  claimed_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'null: running, or its instance died',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  manual: Type.Boolean({ description: 'an operator’s run' }),
})

export const JobList = Type.Object({
  jobs: Type.Array(
    Type.Object({
      name: Type.String(),
      kind: Type.Union([Type.Literal('scheduled'), Type.Literal('queue')], {
        description:
          '`scheduled`: each tick runs on one instance; `queue`: on every instance, each item claimed on its own',
      }),
      schedule: Type.String({ description: 'croner pattern, UTC' }),
      every: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      last_runs: Type.Array(JobRun, { description: 'newest first, from the last day; none for queue jobs' }),
    }),
  ),
})

export const JobParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$' }) })

export const JobOutcome = Type.Object({
  job: Type.String(),
  kind: Type.Union([Type.Literal('scheduled'), Type.Literal('queue')]),
  tick: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ran: Type.Boolean({ description: 'false: another instance had claimed this tick' }),
  ok: Type.Boolean(),
  result: Type.Unknown({ description: 'what the run reports (counts)' }),
  error: Type.Union([Type.String(), Type.Null()]),
})
