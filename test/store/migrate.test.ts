import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadMigrations, migrate, MigrationError } from '../../src/store/migrate.ts'
import type { Database } from '../../src/store/db.ts'
import { scratchDatabase } from '../helpers.ts'

let db: Database
let dir: string
beforeAll(async () => {
  db = await scratchDatabase()
  dir = mkdtempSync(join(tmpdir(), 'plikt-mig-'))
})
afterAll(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const write = (name: string, text: string) => writeFileSync(join(dir, name), text)

test('applies migrations in numeric order and records each with its checksum', async () => {
  write('0002_second.sql', 'insert into t (v) values (2);')
  write('0001_first.sql', 'create table t (v int);')
  write('notes.txt', 'ignored')
  const result = await migrate(db.sql, await loadMigrations(dir))
  expect(result.applied).toEqual(['0001_first.sql', '0002_second.sql'])
  const rows = await db.sql`select version, name, checksum from schema_migrations order by version`
  expect(rows.map((r) => [r.version, r.name])).toEqual([
    [1, 'first'],
    [2, 'second'],
  ])
  expect(rows[0]!.checksum).toMatch(/^[0-9a-f]{64}$/)
  expect((await db.sql`select v from t`).map((r) => r.v)).toEqual([2])
})

test('a second run applies nothing', async () => {
  const result = await migrate(db.sql, await loadMigrations(dir))
  expect(result).toEqual({ applied: [], skipped: 2 })
})

test('concurrent runs apply a new migration exactly once', async () => {
  write('0003_third.sql', 'insert into t (v) values (3);')
  const ms = await loadMigrations(dir)
  const results = await Promise.all([migrate(db.sql, ms), migrate(db.sql, ms), migrate(db.sql, ms)])
  expect(results.flatMap((r) => r.applied)).toEqual(['0003_third.sql'])
  expect((await db.sql`select count(*)::int as n from t where v = 3`)[0]!.n).toBe(1)
})

test('a changed, already applied migration stops with a clear message', async () => {
  write('0001_first.sql', 'create table t (v bigint);')
  const ms = await loadMigrations(dir)
  await expect(migrate(db.sql, ms)).rejects.toThrow(MigrationError)
  await expect(migrate(db.sql, ms)).rejects.toThrow(/0001_first\.sql was changed after it was applied/)
  write('0001_first.sql', 'create table t (v int);')
})

test('a failing migration applies nothing from the batch', async () => {
  write('0004_good.sql', 'insert into t (v) values (4);')
  write('0005_bad.sql', 'insert into no_such_table values (1);')
  await expect(migrate(db.sql, await loadMigrations(dir))).rejects.toThrow()
  expect((await db.sql`select count(*)::int as n from t where v = 4`)[0]!.n).toBe(0)
  expect((await db.sql`select max(version)::int as v from schema_migrations`)[0]!.v).toBe(3)
  rmSync(join(dir, '0005_bad.sql'))
  rmSync(join(dir, '0004_good.sql'))
})

test('two files with one number are refused', async () => {
  write('0003_dupe.sql', 'select 1;')
  await expect(loadMigrations(dir)).rejects.toThrow(/share number 0003/)
  rmSync(join(dir, '0003_dupe.sql'))
})

test('a migration the build does not know is tolerated only when newer than every file', async () => {
  await db.sql`insert into schema_migrations (version, name, checksum) values (99, 'future', 'x')`
  const warnings: string[] = []
  await migrate(db.sql, await loadMigrations(dir), (w) => warnings.push(w))
  expect(warnings.join()).toContain('0099_future.sql')
  rmSync(join(dir, '0002_second.sql'))
  await expect(migrate(db.sql, await loadMigrations(dir))).rejects.toThrow(
    /0002_second\.sql was applied but its file is gone/,
  )
})

test('migration 0008 moves each per-call credit hold into charge_holds, keeping its age, and drops credit_holds', async () => {
  const fresh = await scratchDatabase()
  try {
    const all = await loadMigrations()
    await migrate(
      fresh.sql,
      all.filter((m) => m.version <= 7),
    )
    const [consumer] = await fresh.sql<
      { id: string }[]
    >`insert into consumers (email) values ('held@example.no') returning id`
    const [debit] = await fresh.sql<{ id: string }[]>`
      insert into credit_ledger (consumer_id, amount_ore, kind, reason) values (${consumer!.id}, -50, 'debit', 'metered call') returning id`
    const heldAt = new Date('2026-03-14T09:25:00Z')
    await fresh.sql`insert into credit_holds (ledger_id, consumer_id, created_at) values (${debit!.id}, ${consumer!.id}, ${heldAt})`
    expect((await migrate(fresh.sql, all)).applied).toContain('0008_charge_holds.sql')
    const holds = await fresh.sql<
      { ledger_ids: string[]; created_at: Date }[]
    >`select ledger_ids, created_at from charge_holds`
    expect(
      holds.map((h) => ({ ledger_ids: h.ledger_ids.map(Number), created_at: h.created_at.toISOString() })),
    ).toEqual([{ ledger_ids: [Number(debit!.id)], created_at: heldAt.toISOString() }])
    expect((await fresh.sql`select to_regclass('credit_holds') as t`)[0]!.t).toBeNull()
  } finally {
    await fresh.close()
  }
})

test('migration 0014 ends each OAuth connection whose key was already revoked, audited, and leaves live ones alone', async () => {
  const fresh = await scratchDatabase()
  try {
    const all = await loadMigrations()
    await migrate(
      fresh.sql,
      all.filter((m) => m.version <= 13),
    )
    const [consumer] = await fresh.sql<
      { id: string }[]
    >`insert into consumers (email) values ('host@example.no') returning id`
    const revokedAt = new Date('2026-03-14T09:20:00Z')
    const key = async (hash: string, revoked: Date | null) =>
      (
        await fresh.sql<{ id: string }[]>`
        insert into api_keys (consumer_id, key_hash, display_prefix, label, scopes, source, revoked_at)
        values (${consumer!.id}, ${hash}, 'svc_free_x…', 'OAuth connection', '{read:register}', 'oauth', ${revoked}) returning id`
      )[0]!.id
    const connection = async (subject: string, keyId: string) =>
      (
        await fresh.sql<{ id: string }[]>`
        insert into oauth_connections (issuer, subject, status, consumer_id, key_id, approved_at)
        values ('https://issuer.example', ${subject}, 'active', ${consumer!.id}, ${keyId}, now()) returning id`
      )[0]!.id
    const dead = await connection('dead', await key('h-dead', revokedAt))
    const live = await connection('live', await key('h-live', null))

    expect((await migrate(fresh.sql, all)).applied).toContain('0014_oauth_connection_ends_with_key.sql')
    const rows = await fresh.sql<
      { id: string; status: string; revoked_at: Date | null }[]
    >`select id, status, revoked_at from oauth_connections`
    expect(rows.find((r) => r.id === dead)).toMatchObject({ status: 'revoked', revoked_at: revokedAt })
    expect(rows.find((r) => r.id === live)).toMatchObject({ status: 'active', revoked_at: null })
    const audit = await fresh.sql<
      { actor: string; details: Record<string, unknown> }[]
    >`select actor, details from audit_log where action = 'oauth_connection_revoked'`
    expect([...audit]).toEqual([
      { actor: 'system', details: expect.objectContaining({ connection_id: dead, reason: 'key_revoked' }) },
    ])
  } finally {
    await fresh.close()
  }
})
