/**
 * The change archive's private baselines (sql/0024_change_baselines.sql): the value last observed
 * per source, entity and field. Read without a lock to see whether anything may have changed;
 * claimed (a first observation) or locked (a later one) inside the transaction that appends the
 * change, so two observers of the same change archive it once.
 */
import type { Sql } from './db.ts'

export interface BaselineKey {
  source: string
  entity_type: string
  entity_id: string
  field_path: string
}

export const baselineKey = (k: BaselineKey) =>
  `${k.source}\u0000${k.entity_type}\u0000${k.entity_id}\u0000${k.field_path}`

type Row = BaselineKey & { value: unknown }

const keysJson = (keys: readonly BaselineKey[]) =>
  keys.map((k) => ({ source: k.source, entity_type: k.entity_type, entity_id: k.entity_id, field_path: k.field_path }))

/** The baselines held for the keys (no lock). */
export async function readBaselines(sql: Sql, keys: readonly BaselineKey[]): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map()
  const rows = await sql<Row[]>`
    select b.source, b.entity_type, b.entity_id, b.field_path, b.value
    from jsonb_to_recordset(${sql.json(keysJson(keys) as never)}) as k(source text, entity_type text, entity_id text, field_path text)
    join change_baselines b using (source, entity_type, entity_id, field_path)`
  return new Map(rows.map((r) => [baselineKey(r), r.value]))
}

/**
 * Writes the baselines of keys observed for the first time, in the order given (callers sort, so
 * concurrent claims take row locks in one order); returns the keys it wrote. A key another
 * transaction holds waits for it and is then left alone.
 */
export async function claimBaselines(
  tx: Sql,
  rows: readonly (BaselineKey & { value: unknown })[],
  now: Date,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
  const json = rows.map((r, n) => ({ ...keysJson([r])[0], value: r.value, n }))
  const written = await tx<BaselineKey[]>`
    insert into change_baselines (source, entity_type, entity_id, field_path, value, observed_at)
    select r.source, r.entity_type, r.entity_id, r.field_path, r.value, ${now}
    from jsonb_to_recordset(${tx.json(json as never)}) as r(source text, entity_type text, entity_id text, field_path text, value jsonb, n integer)
    order by r.n
    on conflict do nothing
    returning source, entity_type, entity_id, field_path`
  return new Set(written.map(baselineKey))
}

/** The baselines held for the keys, locked until the transaction ends (keys in the callers' order). */
export async function lockBaselines(tx: Sql, keys: readonly BaselineKey[]): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map()
  const rows = await tx<Row[]>`
    select b.source, b.entity_type, b.entity_id, b.field_path, b.value
    from change_baselines b
    join jsonb_to_recordset(${tx.json(keysJson(keys) as never)}) as k(source text, entity_type text, entity_id text, field_path text)
      using (source, entity_type, entity_id, field_path)
    order by b.source, b.entity_type, b.entity_id, b.field_path
    for update of b`
  return new Map(rows.map((r) => [baselineKey(r), r.value]))
}

/** Replaces the baselines' values (rows already locked by lockBaselines). */
export async function writeBaselines(
  tx: Sql,
  rows: readonly (BaselineKey & { value: unknown })[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return
  const json = rows.map((r) => ({ ...keysJson([r])[0], value: r.value }))
  await tx`
    update change_baselines b set value = r.value, observed_at = ${now}
    from jsonb_to_recordset(${tx.json(json as never)}) as r(source text, entity_type text, entity_id text, field_path text, value jsonb)
    where (b.source, b.entity_type, b.entity_id, b.field_path) = (r.source, r.entity_type, r.entity_id, r.field_path)`
}
