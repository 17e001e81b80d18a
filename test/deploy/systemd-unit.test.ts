/**
 * docs/deploy.md §3's unit, docs/deploy/plikt.service: systemd itself reads it
 * (`systemd-analyze verify`, where systemd is installed), and it keeps what the guide promises —
 * its own user, a read-only system but for DATA_DIR, no new privileges, a restart policy, and a
 * stop timeout above the longest drain its own settings allow.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const UNIT = join(import.meta.dir, '../../docs/deploy/plikt.service')
const ANALYZE = Bun.which('systemd-analyze')
if (!ANALYZE)
  process.stderr.write('systemd-unit.test.ts: systemd-analyze is not installed; the unit is checked without it\n')

/** The unit's settings: `Key` → its values in order (a key may repeat, as Environment= does). */
function settings(): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const line of readFileSync(UNIT, 'utf8').split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (m) out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!])
  }
  return out
}

describe.skipIf(!ANALYZE)('systemd-analyze verify', () => {
  test('systemd reads the unit without a complaint (a binary not installed at ExecStart aside)', () => {
    const r = Bun.spawnSync([ANALYZE!, 'verify', UNIT], { stdout: 'pipe', stderr: 'pipe' })
    const exec = settings().get('ExecStart')![0]!.split(' ')[0]!
    const complaints = `${r.stdout.toString()}${r.stderr.toString()}`
      .split('\n')
      .filter((l) => l.trim() !== '')
      // this machine has not installed the binary where the unit expects it
      .filter((l) => existsSync(exec) || !l.includes(`Command ${exec} is not executable`))
    expect(complaints).toEqual([])
  })
})

test('the unit runs as its own user, can write DATA_DIR only, gains no privileges, restarts on failure', () => {
  const s = settings()
  expect(s.get('User')).toEqual(['plikt'])
  expect(s.get('ProtectSystem')).toEqual(['strict'])
  expect(s.get('NoNewPrivileges')).toEqual(['yes'])
  expect(s.get('Restart')).toEqual(['on-failure'])
  const dataDir = s
    .get('Environment')!
    .map((e) => /^DATA_DIR=(.*)$/.exec(e)?.[1])
    .find(Boolean)
  expect(dataDir).toBe('/var/lib/plikt')
  expect(s.get('ReadWritePaths')).toEqual([dataDir!])
  expect(s.get('StateDirectory')).toEqual(['plikt'])
})

test('TimeoutStopSec is above the longest drain the unit’s settings allow (grace + requests + charges)', () => {
  const s = settings()
  const env = Object.fromEntries(s.get('Environment')!.map((e) => e.split('=', 2) as [string, string]))
  const grace = Number(env.DRAIN_GRACE_MS)
  const timeout = Number(env.DRAIN_TIMEOUT_MS)
  expect(grace).toBeGreaterThan(0)
  // main.ts: the grace, then requests in flight get DRAIN_TIMEOUT_MS, then the batched charges as long again
  const longestDrainMs = grace + 2 * timeout
  expect(Number(s.get('TimeoutStopSec')![0]) * 1000).toBeGreaterThan(longestDrainMs)
})
