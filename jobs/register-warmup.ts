/**
 * The register warm-up of portfolio companies (domain/portfolios/warmup.ts): a queue job, each
 * organisation number claimed on its own, so every instance may run it at once.
 */
import { warmRegister, type WarmupOutcome } from '../src/domain/portfolios/warmup.ts'
import type { JobDeps } from './runner.ts'

export async function runRegisterWarmup(deps: JobDeps): Promise<WarmupOutcome> {
  if (!deps.reads) return { claimed: 0, warmed: 0, failed: 0, forgotten: 0 }
  return warmRegister({ sql: deps.sql, clock: deps.clock, logger: deps.logger, reads: deps.reads })
}
