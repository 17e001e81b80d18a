/**
 * Moving a whole database into another of the same schema (the `export` command: embedded →
 * PostgreSQL). Rows travel as their text form and are cast back to the table's row type on the
 * other side, so every type (arrays, jsonb, timestamps, identities) arrives exactly as it left;
 * checksums compare the same text form on both sides.
 */
import type { Sql } from './db.ts'

/** The application's tables, parents before children (foreign keys), without the migrations ledger. */
export async function tablesInDependencyOrder(sql: Sql): Promise<string[]> {
  const tables = (
    await sql<
      { t: string }[]
    >`select tablename as t from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations' order by tablename`
  ).map((r) => r.t)
  const edges = await sql<{ child: string; parent: string }[]>`
    select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
    from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace`
  const ordered: string[] = []
  const placed = new Set<string>()
  const visit = (t: string, path: Set<string>) => {
    if (placed.has(t) || path.has(t)) return
    path.add(t)
    for (const e of edges) if (e.child === t && e.parent !== t) visit(e.parent, path)
    placed.add(t)
    ordered.push(t)
  }
  for (const t of tables) visit(t, new Set())
  return ordered
}

/** Whether the database holds no table of ours yet (the target of an export must be empty). */
export async function isEmptyDatabase(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from pg_tables where schemaname = 'public'`
  return row!.n === 0
}

/** Identity columns must keep their values: the insert overrides the generator. */
async function hasIdentity(sql: Sql, table: string): Promise<boolean> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from information_schema.columns where table_schema = 'public' and table_name = ${table} and is_identity = 'YES'`
  return row!.n > 0
}

/** Copies every row of `table`, `batch` at a time (a cursor: memory stays bounded). */
export async function copyTable(from: Sql, to: Sql, table: string, batch = 500): Promise<number> {
  const overriding = (await hasIdentity(to, table)) ? 'overriding system value' : ''
  const name = to(table)
  let copied = 0
  await from.begin(async (tx) => {
    const cursor = tx<{ r: string }[]>`select t::text as r from ${tx(table)} t`.cursor(batch)
    for await (const rows of cursor) {
      await to`insert into ${name} ${to.unsafe(overriding)} select (r::${name}).* from unnest(${rows.map((x) => x.r)}::text[]) as r`
      copied += rows.length
    }
  })
  return copied
}

/** Moves every identity sequence past the largest value copied. */
export async function resetIdentities(sql: Sql): Promise<void> {
  const cols = await sql<{ t: string; c: string }[]>`
    select table_name as t, column_name as c from information_schema.columns where table_schema = 'public' and is_identity = 'YES'`
  for (const { t, c } of cols) {
    await sql`select setval(pg_get_serial_sequence(${t}, ${c}), coalesce((select max(${sql(c)}) from ${sql(t)}), 0) + 1, false)`
  }
}

export interface TableSum {
  rows: number
  /**
   * The table's rows as a multiset: each row's text form (timestamps in UTC) hashed with md5, the
   * two 64-bit halves of the hashes summed exactly (numeric), and the two sums hashed. A streaming
   * aggregate: no string of the whole table (PostgreSQL's 1 GB limit, passed near 10 M ledger
   * rows) and no sort; the same rows give the same sum in any order.
   */
  checksum: string
}

export async function tableSum(sql: Sql, table: string): Promise<TableSum> {
  return sql.begin(async (tx) => {
    // Timestamps print in the session's zone: both sides must print them alike.
    await tx`set local timezone to 'UTC'`
    const [row] = await tx<{ rows: number; checksum: string }[]>`
      select count(*)::int as rows,
        md5(coalesce(sum(('x' || substr(h, 1, 16))::bit(64)::bigint::numeric), 0)::text || ':' ||
            coalesce(sum(('x' || substr(h, 17, 16))::bit(64)::bigint::numeric), 0)::text) as checksum
      from (select md5(t::text) as h from ${tx(table)} t) r`
    return row!
  }) as Promise<TableSum>
}
