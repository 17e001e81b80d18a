import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbedded } from '../../src/store/db.ts'
import { listeningAddress } from '../helpers.ts'

// `npm run build` must give one file that runs anywhere: PGlite, the docs UI and the migrations inside.
const work = mkdtempSync(join(tmpdir(), 'plikt-bin-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

test('the single binary starts from an empty directory, migrates, serves the API and the docs assets', async () => {
  const binary = join(work, 'plikt')
  const build = Bun.spawn(['bun', 'scripts/build.ts', binary], { stdout: 'pipe', stderr: 'pipe' })
  expect(await build.exited).toBe(0)

  const { DATABASE_URL: _ignored, ...env } = process.env
  const proc = Bun.spawn([binary], {
    cwd: work,
    env: { ...env, PORT: '0', DATA_DIR: join(work, 'data') },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const { url } = await listeningAddress(proc.stderr)
    expect((await (await fetch(`${url}/api/health`)).json()).status).toBe('ok')
    expect((await fetch(`${url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200)
    expect((await (await fetch(`${url}/api/v1/errors`)).json()).success).toBe(true)
    expect(await (await fetch(`${url}/docs/receipt-signature`)).text()).toContain('PLIKT-RECEIPT-v1')
  } finally {
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
  }

  const help = Bun.spawn([binary, 'backup', '--help'], { cwd: work, stdout: 'pipe' })
  expect(await new Response(help.stdout).text()).toStartWith('usage: plikt backup <file>')
  expect(await help.exited).toBe(0)

  const files = readdirSync('sql').filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
  const db = await openEmbedded(join(work, 'data'))
  try {
    const rows = await db.sql`select version from schema_migrations order by version`
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => Number(f.slice(0, 4))).sort((a, b) => a - b))
  } finally {
    await db.close()
  }
}, 120_000)
