/**
 * The credit ledger at 1 M and 10 M rows (issue 33 item 5): balance reads, the ledger balance
 * (last closing + the rows after it), the nightly consistency check and a month's close, beside
 * what the same check costs by summing each consumer's whole history. The rows are generated with
 * generate_series in creation order — 1 000 consumers, 250 000 paid calls a month, the sequence
 * marked at each month's start as the hourly job would have — on a PostgreSQL cluster of the
 * benchmark's own (initdb defaults but fsync off, to generate quickly). `--record` appends the
 * table to bench/RESULTS.md.
 */
import { appendFileSync } from 'node:fs'
import postgres from 'postgres'
import { checkLedger, closeDueMonths } from '../src/domain/billing/ledger.ts'
import type { Sql } from '../src/store/db.ts'
import { readBalance } from '../src/store/credits.ts'
import { ledgerBalance } from '../src/store/ledger.ts'
import { loadMigrations, migrate } from '../src/store/migrate.ts'
import { PostgresCluster } from '../test/support/postgres-cluster.ts'
import { machine } from './harness.ts'

const CONSUMERS = 1000
const PER_MONTH = 250_000
const START = Date.parse('2024-01-01T00:00:00Z')
const STEP_MS = (30 * 86_400_000) / PER_MONTH // ≈ 10.4 s between rows: 250 000 in 30 days

const pg = new PostgresCluster({ fsync: 'off', shared_buffers: '128MB', max_wal_size: '4GB' })
pg.init()
pg.start()
const root = postgres(pg.url('postgres'), { max: 1, onnotice: () => {} })
await root.unsafe('create database plikt')
await root.end()
const sql = postgres(pg.url('plikt'), { max: 4, onnotice: () => {} }) as unknown as Sql
const rows: string[] = []

try {
  await migrate(sql, await loadMigrations())
  await sql`insert into consumers (email, tier) select 'ledger-bench-' || g || '@example.no', 'enterprise' from generate_series(1, ${CONSUMERS}) g`
  await sql`create temporary table bench_consumers as select row_number() over (order by id) as n, id from consumers`
  // one top-up each, at the start: enough for every call
  await sql`
    insert into credit_ledger (consumer_id, amount_ore, kind, reason, created_at)
    select id, 100000000000, 'admin_credit', 'benchmark', ${new Date(START)} from bench_consumers order by n`
  let generated = 0

  /** Paid calls up to `total` rows, in creation order; marks at each month start; balances set from the ledger. */
  const grow = async (total: number) => {
    const from = generated + 1
    const t0 = performance.now()
    for (let lo = from; lo <= total; lo += 1_000_000) {
      const hi = Math.min(total, lo + 999_999)
      await sql`
        insert into credit_ledger (consumer_id, amount_ore, kind, reason, operation_id, correlation_id, created_at)
        select c.id, -50, 'debit', 'metered call', 'companySummary', md5(g::text),
               ${new Date(START)}::timestamptz + g * ${STEP_MS} * interval '1 millisecond'
        from generate_series(${lo}::bigint, ${hi}::bigint) g join bench_consumers c on c.n = g % ${CONSUMERS} + 1
        order by g`
    }
    generated = total
    await sql`
      insert into ledger_marks (at, last_id)
      select m, (select coalesce(max(id), 0) from credit_ledger where id <= (select max(id) from credit_ledger) and created_at < m)
      from generate_series(${new Date(START)}::timestamptz, ${instantOf(total)}::timestamptz, interval '1 month') m
      on conflict (at) do nothing`
    await sql`
      insert into credit_balances (consumer_id, balance_ore)
      select consumer_id, sum(amount_ore) from credit_ledger group by consumer_id
      on conflict (consumer_id) do update set balance_ore = excluded.balance_ore`
    await sql`vacuum analyze credit_ledger`
    return (performance.now() - t0) / 1000
  }

  const measure = async (label: string, total: number) => {
    const seconds = await grow(total)
    const now = instantOf(total)
    const tc = performance.now()
    const closed = await closeDueMonths(sql, now)
    const closeAll = (performance.now() - tc) / 1000
    const ids = (await sql<{ id: string }[]>`select id from bench_consumers order by random() limit 200`).map(
      (r) => r.id,
    )
    const per = async (f: (id: string) => Promise<unknown>) => {
      for (const id of ids.slice(0, 20)) await f(id) // warm
      const t = performance.now()
      for (const id of ids) await f(id)
      return ((performance.now() - t) * 1000) / ids.length
    }
    const balance = await per((id) => readBalance(sql, id))
    const fromClosing = await per((id) => ledgerBalance(sql, id))
    const wholeHistory = await per(
      (id) => sql`select coalesce(sum(amount_ore), 0) from credit_ledger where consumer_id = ${id}`,
    )
    const t1 = performance.now()
    const check = await checkLedger(sql, now, { force: true })
    const checkMs = performance.now() - t1
    if (check.mismatches.length || check.audit_mismatches.length) throw new Error('the check found differences')
    const t2 = performance.now()
    await sql`
      select b.consumer_id from credit_balances b
      where b.balance_ore <> (select coalesce(sum(amount_ore), 0) from credit_ledger l where l.consumer_id = b.consumer_id)`
    const wholeCheckMs = performance.now() - t2
    const [size] = await sql<{ mb: string; n: string }[]>`
      select pg_total_relation_size('credit_ledger') / 1048576 as mb, (select count(*) from credit_ledger) as n`
    const [open] = await sql<{ n: string }[]>`
      select count(*) as n from credit_ledger where created_at >= (select max(ends_at) from ledger_months where closed_at is not null)`
    rows.push(
      `| ${label} | ${Number(size!.n).toLocaleString('en')} | ${size!.mb} | ${closed.closed.length} months in ${closeAll.toFixed(1)} s (${(closeAll / Math.max(1, closed.closed.length)).toFixed(2)} s a month) | ${Number(open!.n).toLocaleString('en')} | ${balance.toFixed(0)} | ${fromClosing.toFixed(0)} | ${wholeHistory.toFixed(0)} | ${checkMs.toFixed(0)} (audit of ${check.audited_month}) | ${wholeCheckMs.toFixed(0)} | ${seconds.toFixed(0)} s |`,
    )
    console.error(rows.at(-1))
  }

  await measure('1 M', 1_000_000)
  await measure('10 M', 10_000_000)
  const version = (await sql`show server_version`)[0]!.server_version
  const table = [
    `### The credit ledger at 1 M and 10 M rows: balance reads and the nightly check — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`npm run bench -- ledger\`; PostgreSQL ${version} of the benchmark's own (fsync off, shared_buffers 128MB), ${CONSUMERS} consumers, ${PER_MONTH.toLocaleString('en')} paid calls a month generated with generate_series (a 50 øre debit each, realistic reason, operation and correlation id), marks at each month start as the hourly ledger-close job leaves them; each figure after \`vacuum analyze\`. Per-consumer figures are the mean over 200 random consumers, one query at a time. The check is \`checkLedger\` (every balance against its closing plus the rows after it, in batches of 500, then one closed month read again against its closings); "whole history" is the same comparison by summing every consumer's rows. ${machine()}.`,
    '',
    '| ledger | rows | credit_ledger MB (with indexes) | closing the months due | rows after the last closed month | balance read µs | ledger balance (closing + after) µs | sum of the whole history µs | nightly check ms | whole-history check ms | generating |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
  console.log(table)
  if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
} finally {
  await sql.end()
  pg.destroy()
}

function instantOf(rowsSoFar: number): Date {
  return new Date(START + rowsSoFar * STEP_MS)
}
