/**
 * The binary's commands as an operator runs them, each in its own process: a backup taken from a
 * serving instance through its operator API, restored into an empty DATA_DIR and served again
 * with the same balances; an export of the embedded database into an empty PostgreSQL database,
 * verified table by table and served from there; a closed month of the credit ledger archived to
 * a file and deleted; bad arguments refused with exit code 2.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, createHmac } from 'node:crypto'
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import postgres from 'postgres'
import { closeDueMonths } from '../src/domain/billing/ledger.ts'
import { unpackBackup } from '../src/lib/backup-archive.ts'
import { serverKeys } from '../src/lib/server-secret.ts'
import { accountOn, freeFixedPort } from './helpers.ts'

const root = mkdtempSync(join(tmpdir(), 'plikt-commands-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const ADMIN = 'commands-test-admin-token-0123456789abcdef'
const { DATABASE_URL: PG_URL, BASE_URL: _unset, ...inherited } = process.env

function env(extra: Record<string, string>): Record<string, string> {
  return {
    ...(inherited as Record<string, string>),
    ADMIN_TOKEN: ADMIN,
    UPSTREAM_MODE: 'fixtures',
    SERVER_SECRET: 'commands-test-server-secret-0123456789abcdef',
    ...extra,
  }
}

async function run(args: string[], extra: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(['bun', 'src/main.ts', ...args], { env: env(extra), stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, out, err }
}

async function serve(extra: Record<string, string>): Promise<{ url: string; stop(): Promise<number> }> {
  const port = String(freeFixedPort())
  const proc = Bun.spawn(['bun', 'src/main.ts'], {
    env: env({ PORT: port, BASE_URL: `http://127.0.0.1:${port}`, ...extra }),
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const reader = proc.stderr.getReader()
  let text = ''
  while (!/listening on/.test(text)) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the service did not start:\n${text}`)
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      proc.kill('SIGTERM')
      return proc.exited
    },
  }
}

/**
 * The embedded commands run processes of their own on an embedded database whatever DATABASE_URL
 * says, so they run once per suite: in the embedded run (the PostgreSQL run has its own tests
 * below). A fresh database costs an initdb (seconds, and most of this file's time), so one migrated
 * DATA_DIR is made once and each test that needs a fresh one starts from a copy of it.
 */
const embeddedRun = !PG_URL
const template = join(root, 'template')
beforeAll(async () => {
  if (embeddedRun) expect((await run(['migrate'], { DATA_DIR: template })).code).toBe(0)
}, 180_000)

/** A migrated embedded DATA_DIR of its own, copied from the template. */
function migratedDataDir(name: string): string {
  const dir = join(root, name)
  cpSync(template, dir, { recursive: true })
  return dir
}

/** A consumer with credits, a key, and two metered reads: rows in the ledger, the holds, the audit log. */
async function populate(url: string): Promise<{ consumer: string; key: string; balance: number }> {
  const { consumer, key } = await accountOn(url, ADMIN, {
    email: 'ops@example.no',
    tier: 'starter',
    amountOre: 10_000,
    reason: 'backup test',
  })
  for (const org of ['984661185', '923609016'])
    expect(
      (await fetch(`${url}/api/v1/company/${org}/summary`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200)
  return { consumer, key, balance: await balance(url, key) }
}

async function balance(url: string, key: string): Promise<number> {
  return (
    await (await fetch(`${url}/api/v1/account/credits/balance`, { headers: { authorization: `Bearer ${key}` } })).json()
  ).data.balance_ore
}

describe.skipIf(!embeddedRun)('backup and restore', () => {
  test('a backup taken from a serving instance restores into an empty DATA_DIR with the same balance and key', async () => {
    const source = migratedDataDir('source')
    const file = join(root, 'backup.tar.gz')
    const instance = await serve({ DATA_DIR: source })
    let state
    try {
      state = await populate(instance.url)
      expect(state.balance).toBe(9_900)
      const backup = await run(['backup', file], { DATA_DIR: source, BASE_URL: instance.url })
      expect([backup.code, backup.err]).toEqual([0, ''])
      expect(backup.out).toContain(`written to ${file}`)
    } finally {
      expect(await instance.stop()).toBe(0)
    }
    const target = join(root, 'restored')
    const restore = await run(['restore', file], { DATA_DIR: target })
    expect([restore.code, restore.err]).toEqual([0, ''])
    const again = await run(['restore', file], { DATA_DIR: target })
    expect(again.code).toBe(1)
    expect(again.err).toContain('is not empty')
    const restored = await serve({ DATA_DIR: target })
    try {
      expect(await balance(restored.url, state.key)).toBe(state.balance)
    } finally {
      await restored.stop()
    }
  }, 180_000)
})

describe.skipIf(!embeddedRun)('a backup is whole', () => {
  const KEYLESS_SECRET = { SERVER_SECRET: '' } // the secret generated into DATA_DIR, as on a laptop

  test('found from DATA_DIR alone, it carries the server secret: restored, the consumer’s receipt key and the fnr key are the ones before', async () => {
    const source = migratedDataDir('whole-source')
    const file = join(root, 'whole.tar.gz')
    const instance = await serve({ DATA_DIR: source, ...KEYLESS_SECRET })
    let state
    let receiptKey
    try {
      state = await populate(instance.url)
      receiptKey = (
        await (
          await fetch(`${instance.url}/api/v1/auth/receipt-key`, { headers: { authorization: `Bearer ${state.key}` } })
        ).json()
      ).data
      expect(receiptKey.key_hex).toMatch(/^[0-9a-f]{64}$/)
      // neither PORT nor BASE_URL: the instance is found from DATA_DIR/instance.json
      const backup = await run(['backup', file], { DATA_DIR: source, ...KEYLESS_SECRET })
      expect([backup.code, backup.err]).toEqual([0, ''])
    } finally {
      expect(await instance.stop()).toBe(0)
    }
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const listing = Bun.spawnSync(['tar', '-tzf', file]).stdout.toString().trim().split('\n')
    expect(listing).toEqual(['plikt-backup.json', 'server-secret', 'database.tar.gz'])

    const target = join(root, 'whole-restored')
    const restore = await run(['restore', file], { DATA_DIR: target, ...KEYLESS_SECRET })
    expect([restore.code, restore.err]).toEqual([0, ''])
    const before = readFileSync(join(source, 'server-secret'), 'utf8').trim()
    const after = readFileSync(join(target, 'server-secret'), 'utf8').trim()
    expect(after).toBe(before)
    expect(statSync(join(target, 'server-secret')).mode & 0o777).toBe(0o600)
    // an fnr digest made before matches the one made after
    const fnr = '01010112345'
    const digest = (secret: string) => createHmac('sha256', serverKeys(secret).fnr).update(fnr).digest('hex')
    expect(digest(after)).toBe(digest(before))
    const restored = await serve({ DATA_DIR: target, ...KEYLESS_SECRET })
    try {
      expect(await balance(restored.url, state.key)).toBe(state.balance)
      // receipts signed before verify after: the consumer's receipt key is the same
      const again = (
        await (
          await fetch(`${restored.url}/api/v1/auth/receipt-key`, { headers: { authorization: `Bearer ${state.key}` } })
        ).json()
      ).data
      expect([again.key_id, again.key_hex]).toEqual([receiptKey.key_id, receiptKey.key_hex])
    } finally {
      await restored.stop()
    }
  }, 180_000)

  test('a backup without the secret (made before backups carried it) is refused, saying where the secret comes from; restored with --server-secret-file', async () => {
    const source = migratedDataDir('legacy-source')
    writeFileSync(join(source, 'server-secret'), 'legacy-server-secret-0123456789abcdef0123456789\n', { mode: 0o600 })
    const whole = join(root, 'legacy-whole.tar.gz')
    expect((await run(['backup', whole], { DATA_DIR: source, ...KEYLESS_SECRET })).code).toBe(0)
    const unpacked = unpackBackup(new Uint8Array(readFileSync(whole)))
    if (unpacked.kind !== 'whole') throw new Error('expected a whole backup')
    const legacy = join(root, 'legacy.tar.gz')
    writeFileSync(legacy, unpacked.database) // what `plikt backup` wrote before: the database alone

    const target = join(root, 'legacy-restored')
    const refused = await run(['restore', legacy], { DATA_DIR: target, ...KEYLESS_SECRET })
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('--server-secret-file')
    expect(refused.err).toContain('SERVER_SECRET')
    expect(existsSync(join(target, 'pgdata'))).toBe(false)

    const restored = await run(['restore', legacy, '--server-secret-file', join(source, 'server-secret')], {
      DATA_DIR: target,
      ...KEYLESS_SECRET,
    })
    expect([restored.code, restored.err]).toEqual([0, ''])
    expect(readFileSync(join(target, 'server-secret'), 'utf8').trim()).toBe(
      'legacy-server-secret-0123456789abcdef0123456789',
    )
  }, 180_000)

  test('a SERVER_SECRET other than the backup’s is refused: nothing is restored', async () => {
    const source = migratedDataDir('other-source')
    writeFileSync(join(source, 'server-secret'), 'other-server-secret-0123456789abcdef0123456789\n', { mode: 0o600 })
    const file = join(root, 'other.tar.gz')
    expect((await run(['backup', file], { DATA_DIR: source, ...KEYLESS_SECRET })).code).toBe(0)
    const target = join(root, 'other-restored')
    const refused = await run(['restore', file], {
      DATA_DIR: target,
      SERVER_SECRET: 'another-server-secret-0123456789abcdef012345',
    })
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('another server secret')
    expect(existsSync(join(target, 'pgdata'))).toBe(false)
  }, 180_000)
})

describe.skipIf(!embeddedRun)('a backup file', () => {
  test('is readable by its owner only (0600), whatever the umask', async () => {
    const dir = migratedDataDir('private-source')
    const file = join(root, 'private.tar.gz')
    const backup = await run(['backup', file], { DATA_DIR: dir })
    expect([backup.code, backup.err]).toEqual([0, ''])
    expect(statSync(file).mode & 0o777).toBe(0o600)
  }, 60_000)

  test('is never written through a symlink planted at <file>.partial: the link’s target is untouched', async () => {
    const dir = migratedDataDir('link-source')
    const victim = join(root, 'victim.txt')
    writeFileSync(victim, 'keep me')
    const file = join(root, 'linked.tar.gz')
    symlinkSync(victim, `${file}.partial`)
    const backup = await run(['backup', file], { DATA_DIR: dir })
    expect([backup.code, backup.err]).toEqual([0, ''])
    expect(readFileSync(victim, 'utf8')).toBe('keep me')
    expect(lstatSync(file).isSymbolicLink()).toBe(false)
    expect(statSync(file).size).toBeGreaterThan(1000)
  }, 60_000)
})

describe.skipIf(!PG_URL)('export to PostgreSQL', () => {
  test('moves every table into an empty database, verifies each, and the service runs on it', async () => {
    const dir = join(root, 'exported')
    const instance = await serve({ DATA_DIR: dir })
    let state
    try {
      state = await populate(instance.url)
    } finally {
      await instance.stop()
    }
    const name = `plikt_export_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
    const adminSql = postgres(PG_URL!, { max: 1, onnotice: () => {} })
    await adminSql.unsafe(`create database ${name}`)
    const url = new URL(PG_URL!)
    url.pathname = `/${name}`
    try {
      const exported = await run(['export', '--to', url.toString()], { DATA_DIR: dir })
      expect([exported.code, exported.err]).toEqual([0, ''])
      expect(exported.out).toContain('every row count and checksum matches')
      expect(exported.out).toMatch(/verified credit_ledger: [1-9]\d* rows/)
      expect(exported.out).toMatch(/verified audit_log: [1-9]\d* rows/)
      const refused = await run(['export', '--to', url.toString()], { DATA_DIR: dir })
      expect([refused.code, refused.err]).toEqual([
        1,
        'plikt export: the target database holds tables already: export fills an empty database only\n',
      ])
      const onPostgres = await serve({ DATABASE_URL: url.toString(), DATA_DIR: join(root, 'unused') })
      try {
        expect(await balance(onPostgres.url, state.key)).toBe(state.balance)
        // the identity sequence moved past the copied rows: a new charge is written
        expect(
          (
            await fetch(`${onPostgres.url}/api/v1/company/984661185/context`, {
              headers: { authorization: `Bearer ${state.key}` },
            })
          ).status,
        ).toBe(200)
        expect(await balance(onPostgres.url, state.key)).toBe(state.balance - 50)
      } finally {
        await onPostgres.stop()
      }
    } finally {
      await adminSql.unsafe(`drop database if exists ${name} with (force)`)
      await adminSql.end()
    }
  }, 180_000)
})

describe('arguments', () => {
  test('a missing argument, an unknown option and an unknown command exit 2 with the usage', async () => {
    for (const args of [
      ['backup'],
      ['restore', 'a', 'b'],
      ['export'],
      ['export', '--to', 'mysql://x'],
      ['migrate', '--force'],
      ['frobnicate'],
    ]) {
      const r = await run(args, { DATA_DIR: join(root, 'never') })
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2])
      expect(r.err).toContain('usage')
    }
  }, 60_000)

  test('a name every object inherits (constructor, toString) is no command: exit 2 with the usage', async () => {
    for (const name of ['constructor', 'toString']) {
      const r = await run([name], { DATA_DIR: join(root, 'never') })
      expect([name, r.code]).toEqual([name, 2])
      expect(r.err).toContain('unknown command')
    }
  }, 60_000)

  test('--help answers for every command', async () => {
    for (const c of ['serve', 'migrate', 'backup', 'restore', 'export']) {
      const r = await run([c, '--help'], {})
      expect([c, r.code, r.out.startsWith(`usage: plikt ${c === 'serve' ? '[serve]' : c}`)]).toEqual([c, 0, true])
    }
  }, 60_000)

  test('serve with an argument other than --help exits 2 with the usage', async () => {
    const r = await run(['serve', '--port', '1'], { DATA_DIR: join(root, 'never') })
    expect(r.code).toBe(2)
    expect(r.err).toContain('usage')
  }, 30_000)

  test('backup and restore on PostgreSQL point to its own tools', async () => {
    const r = await run(['backup', join(root, 'x.tar.gz')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
    expect(r.code).toBe(2)
    expect(r.err).toContain('pg_dump')
  }, 30_000)
})

describe.skipIf(!embeddedRun)('rotate-receipt-key', () => {
  test('adds a key that signs from ten minutes on by default and keeps the previous one listed with its window; a bad --valid-from exits 2', async () => {
    const dir = migratedDataDir('receipt-keys')
    const first = await run(['rotate-receipt-key', '--valid-from', 'now'], { DATA_DIR: dir })
    expect([first.code, first.err]).toEqual([0, ''])
    const firstKid = /^new receipt key (\S+) signs from/.exec(first.out)![1]!
    const before = Date.now()
    const second = await run(['rotate-receipt-key'], { DATA_DIR: dir })
    expect([second.code, second.err]).toEqual([0, ''])
    const [, kid, from, retired] =
      /^new receipt key (\S+) signs from (\S+); (\S+) signs until then and stays published/.exec(second.out)!
    expect(retired).toBe(firstKid)
    expect(kid).not.toBe(firstKid)
    expect(Date.parse(from!) - before).toBeGreaterThanOrEqual(10 * 60_000 - 1000)
    const bad = await run(['rotate-receipt-key', '--valid-from', 'tomorrow'], { DATA_DIR: dir })
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--valid-from must be')
    const past = await run(['rotate-receipt-key', '--valid-from', '2020-01-01T00:00:00Z'], { DATA_DIR: dir })
    expect(past.code).toBe(1)
    expect(past.err).toContain('in the past')
  }, 120_000)
})

describe.skipIf(!PG_URL)('archive-ledger', () => {
  test('writes a closed month to a private file that reads back whole, and with --delete removes its rows; a month not closed exits 1, a bad month 2', async () => {
    const name = `plikt_archive_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`
    const adminSql = postgres(PG_URL!, { max: 1, onnotice: () => {} })
    await adminSql.unsafe(`create database ${name}`)
    const url = new URL(PG_URL!)
    url.pathname = `/${name}`
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
    try {
      expect((await run(['migrate'], { DATABASE_URL: url.toString() })).code).toBe(0)
      const [c] = await sql<{ id: string }[]>`insert into consumers (email) values ('archive@example.no') returning id`
      await sql`insert into credit_balances (consumer_id, balance_ore) values (${c!.id}, 900)`
      await sql`
        insert into credit_ledger (consumer_id, amount_ore, kind, reason, created_at)
        values (${c!.id}, 1000, 'topup', 'history', '2026-01-02T08:00:00Z'), (${c!.id}, -50, 'debit', 'history', '2026-01-03T08:00:00Z'),
               (${c!.id}, -50, 'debit', 'history', '2026-02-03T08:00:00Z')`
      await closeDueMonths(sql as never, new Date('2026-02-14T00:00:00Z'))
      const file = join(root, 'ledger-2026-01.jsonl.gz')

      const notClosed = await run(['archive-ledger', '2026-02', join(root, 'feb.gz')], { DATABASE_URL: url.toString() })
      expect([notClosed.code, notClosed.err]).toEqual([
        1,
        'plikt archive-ledger: 2026-02 is not closed: only a closed month is archived\n',
      ])
      expect(existsSync(join(root, 'feb.gz'))).toBe(false)
      expect((await run(['archive-ledger', '2026-13', file], { DATABASE_URL: url.toString() })).code).toBe(2)

      const done = await run(['archive-ledger', '2026-01', file, '--delete'], { DATABASE_URL: url.toString() })
      expect([done.code, done.err]).toEqual([0, ''])
      expect(done.out).toContain('2026-01: 2 rows, 950 øre, written to')
      expect(done.out).toContain('2026-01: 2 rows deleted from the database; recorded as archived')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      // a gzip member per page of rows, as `zcat` reads them
      const lines = gunzipSync(readFileSync(file)).toString().trim().split('\n')
      expect(JSON.parse(lines[0]!)).toMatchObject({
        format: 'plikt-ledger-month',
        month: '2026-01-01',
        rows: 2,
        sum_ore: 950,
      })
      expect(lines.slice(1).map((l) => JSON.parse(l).amount_ore)).toEqual(['1000', '-50'])
      const [left] = await sql<{ n: number }[]>`select count(*)::int as n from credit_ledger`
      expect(left!.n).toBe(1)
      const [m] = await sql<
        { sha: string }[]
      >`select archive_sha256 as sha from ledger_months where month = '2026-01-01'`
      expect(m!.sha).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'))
      const again = await run(['archive-ledger', '2026-01', join(root, 'again.gz')], { DATABASE_URL: url.toString() })
      expect(again.code).toBe(1)
      expect(again.err).toContain('was archived on')
    } finally {
      await sql.end()
      await adminSql.unsafe(`drop database ${name} with (force)`)
      await adminSql.end()
    }
  }, 120_000)
})
