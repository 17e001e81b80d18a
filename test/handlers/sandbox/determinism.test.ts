/**
 * The determinism contract (spec: Sandbox `_meta`): the same sandbox request gives a
 * byte-identical body except `_meta.response_timestamp` — asked twice of one process, and asked
 * of a freshly started one (`bun src/main.ts` on its own embedded database, in another time
 * zone, on the wall clock) configured with the same BASE_URL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PUBLIC_SANDBOX_ORG, RESERVED_ERROR_ORGS, SANDBOX_COMPANIES } from '../../../fixtures/sandbox/companies.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { freshIp } from '../../helpers.ts'
import { ORG_ROUTES, PUBLIC, SANDBOX, withoutTimestamp } from '../../helpers.ts'
import { listeningAddress } from '../../helpers.ts'

let app: TestApp
let fresh: { url: string; proc: ReturnType<typeof Bun.spawn>; dir: string }

/** Starts the real entry point and resolves with its address once it says it listens. */
async function startFreshProcess(baseUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'plikt-sandbox-determinism-'))
  const { DATABASE_URL: _embeddedOnly, ...env } = process.env
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: {
      ...env,
      PORT: '0',
      DATA_DIR: dir,
      BASE_URL: baseUrl,
      UPSTREAM_MODE: 'fixtures',
      LOG_LEVEL: 'error',
      TZ: 'America/Los_Angeles',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  return { url: (await listeningAddress(proc.stderr)).url, proc, dir }
}

beforeAll(async () => {
  app = await startApp()
  fresh = await startFreshProcess(app.url)
}, 60_000)

afterAll(async () => {
  fresh.proc.kill('SIGTERM')
  await fresh.proc.exited
  rmSync(fresh.dir, { recursive: true, force: true })
  await app.stop()
})

/** Every GET route of every fixture company and of synthetic numbers of each series, grouped per company. */
const perCompany = [
  ...SANDBOX_COMPANIES.map((c) => ({ label: `${c.org_number} ${c.name}`, org: c.org_number })),
  ...['818123456', '999661017', '999770001', '818000030'].map((org) => ({ label: `${org} (synthetic)`, org })),
].map(({ label, org }) => ({ label, paths: ORG_ROUTES.map((r) => `${SANDBOX}/company/${org}/${r}`) }))

/** The rest of the read side: the catalogue, the public mirror, knobs and error answers. */
const others = [
  `${SANDBOX}/fixtures`,
  `${PUBLIC}/fixtures`,
  ...ORG_ROUTES.map((r) => `${PUBLIC}/company/${PUBLIC_SANDBOX_ORG}/${r}`),
  `${SANDBOX}/company/818000006/deadlines?mock_date=2026-06-30`,
  `${SANDBOX}/company/999771009/obligations?mock_date=2027-02-28`,
  `${SANDBOX}/company/818000006/audit?limit=7`,
  `${SANDBOX}/company/123456785/context`,
  `${SANDBOX}/company/818000006/verify?simulate_error=upstream_5xx`,
  `${PUBLIC}/company/818000006/context`,
  ...Object.keys(RESERVED_ERROR_ORGS).map((org) => `${SANDBOX}/company/${org}/summary`),
]

/** The bodies of one process's answers, blanked where the contract allows a difference. */
async function bodies(
  base: string,
  paths: string[],
  headers: Record<string, string> = {},
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const p of paths)
    out[p] = withoutTimestamp(await (await fetch(base + p, { headers: { ...headers, ...freshIp() } })).text())
  return out
}

describe('one process, asked twice', () => {
  for (const { label, paths } of perCompany) {
    test(`every route of ${label} answers byte-identically`, async () => {
      expect(await bodies(app.url, paths)).toEqual(await bodies(app.url, paths))
    })
  }

  test('the catalogue, the public mirror, the knobs and the error answers answer byte-identically', async () => {
    expect(await bodies(app.url, others)).toEqual(await bodies(app.url, others))
  })

  test('time travel answers byte-identically, whatever the bearer’s suffix', async () => {
    const paths = ['obligations', 'deadlines', 'summary'].map(
      (r) => `${SANDBOX}/company/999661009/${r}?as_of=2026-09-15`,
    )
    const first = await bodies(app.url, paths, { authorization: `Bearer svc_sandbox_test_${crypto.randomUUID()}` })
    const second = await bodies(app.url, paths, { authorization: `Bearer svc_sandbox_test_${crypto.randomUUID()}` })
    expect(second).toEqual(first)
  })

  test('only response_timestamp is blanked: a body differs from the next in nothing else', async () => {
    const path = `${SANDBOX}/company/818000006/summary`
    const [a, b] = [await (await app.get(path)).text(), await (await app.get(path)).text()]
    app.clock.advance(61_000)
    const c = await (await app.get(path)).text()
    app.clock.set(PINNED_NOW)
    expect(a).toBe(b)
    expect(c).not.toBe(a)
    expect(withoutTimestamp(c)).toBe(withoutTimestamp(a))
  })
})

describe('a freshly started process', () => {
  for (const { label, paths } of perCompany) {
    test(`every route of ${label} answers byte-identically`, async () => {
      expect(await bodies(fresh.url, paths)).toEqual(await bodies(app.url, paths))
    })
  }

  test('the catalogue, the public mirror, the knobs and the error answers answer byte-identically', async () => {
    expect(await bodies(fresh.url, others)).toEqual(await bodies(app.url, others))
  })

  test('time travel answers byte-identically', async () => {
    const h = { authorization: 'Bearer svc_sandbox_test_determinism' }
    const paths = ['obligations', 'deadlines', 'summary'].map(
      (r) => `${SANDBOX}/company/999000002/${r}?as_of=2025-12-31`,
    )
    expect(await bodies(fresh.url, paths, h)).toEqual(await bodies(app.url, paths, h))
  })
})
