/** Saved profiles: every statement names the owning consumer, so another account's row is never seen. */
import type { Sql } from './db.ts'

export interface ProfileRow {
  id: string
  name: string
  config: Record<string, unknown>
  created_at: Date
  updated_at: Date
}

export async function countProfiles(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from saved_profiles where consumer_id = ${consumerId}`
  return row!.n
}

export async function insertProfile(
  sql: Sql,
  consumerId: string,
  name: string,
  config: Record<string, unknown>,
  now: Date,
): Promise<ProfileRow> {
  const [row] = await sql<ProfileRow[]>`
    insert into saved_profiles (consumer_id, name, config, created_at, updated_at)
    values (${consumerId}, ${name}, ${sql.json(config as never)}, ${now}, ${now})
    returning id, name, config, created_at, updated_at`
  return row!
}

/** The consumer's profiles, most recently changed first. */
export async function listProfiles(sql: Sql, consumerId: string): Promise<ProfileRow[]> {
  return sql<ProfileRow[]>`
    select id, name, config, created_at, updated_at from saved_profiles
    where consumer_id = ${consumerId} order by updated_at desc, id`
}

export async function findProfile(sql: Sql, consumerId: string, id: string): Promise<ProfileRow | null> {
  const [row] = await sql<ProfileRow[]>`
    select id, name, config, created_at, updated_at from saved_profiles where id = ${id} and consumer_id = ${consumerId}`
  return row ?? null
}

export async function replaceProfile(
  sql: Sql,
  consumerId: string,
  id: string,
  name: string,
  config: Record<string, unknown>,
  now: Date,
): Promise<ProfileRow | null> {
  const [row] = await sql<ProfileRow[]>`
    update saved_profiles set name = ${name}, config = ${sql.json(config as never)}, updated_at = greatest(${now}::timestamptz, created_at)
    where id = ${id} and consumer_id = ${consumerId}
    returning id, name, config, created_at, updated_at`
  return row ?? null
}

export async function deleteProfile(sql: Sql, consumerId: string, id: string): Promise<boolean> {
  const rows = await sql`delete from saved_profiles where id = ${id} and consumer_id = ${consumerId} returning id`
  return rows.length === 1
}
