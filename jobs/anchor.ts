/**
 * The daily Merkle anchor (domain/anchors/anchor.ts). It ticks every hour; a tick anchors each
 * complete UTC day not anchored yet (a day is complete ten minutes after it ends), so the day's
 * anchor is made by the first tick after 00:10 and a tick that died is made good by the next.
 * Two instances building the same day write it once (the day is the key).
 */
import { runAnchors, type AnchorRunResult } from '../src/domain/anchors/anchor.ts'
import type { JobDeps } from './runner.ts'

export async function runAnchorJob(deps: JobDeps): Promise<AnchorRunResult> {
  return runAnchors({ ...deps, tsa: deps.tsa ?? null })
}
