/**
 * The mock digital agency's requests and system users (sql/0016_mock_digital_agency.sql). Every
 * change is one conditional statement, so concurrent callers on any instance serialise on the row
 * (or on the unique index) and exactly one of them changes it.
 */
import type { Sql } from './db.ts'

export interface MockRequestRow {
  id: string
  external_ref: string
  system_id: string
  party_org_no: string
  access_packages: string[]
  redirect_url: string | null
  status: 'New' | 'Accepted' | 'Rejected'
  created_at: Date
  expires_at: Date
  decided_at: Date | null
  decided_by_name: string | null
  decided_by_basis: string | null
  system_user_id: string | null
  system_user_deleted_at: Date | null
}

const COLUMNS =
  'id, external_ref, system_id, party_org_no, access_packages, redirect_url, status, created_at, expires_at, decided_at, decided_by_name, decided_by_basis, system_user_id, system_user_deleted_at'

export interface NewMockRequest {
  externalRef: string
  systemId: string
  partyOrgNo: string
  accessPackages: string[]
  redirectUrl: string | null
  createdAt: Date
  expiresAt: Date
}

/**
 * The live request for (organisation, externalRef): the one inserted now, or the one already
 * there. The no-op update on conflict makes the statement return the existing row under its lock,
 * so two racing calls get the same row and never a second one.
 */
export async function claimMockRequest(sql: Sql, r: NewMockRequest): Promise<MockRequestRow> {
  const [row] = await sql<MockRequestRow[]>`
    insert into mock_system_user_requests (external_ref, system_id, party_org_no, access_packages, redirect_url, created_at, expires_at)
    values (${r.externalRef}, ${r.systemId}, ${r.partyOrgNo}, ${r.accessPackages}, ${r.redirectUrl}, ${r.createdAt}, ${r.expiresAt})
    on conflict (party_org_no, external_ref) where system_user_deleted_at is null
    do update set external_ref = mock_system_user_requests.external_ref
    returning ${sql.unsafe(COLUMNS)}`
  return row!
}

export async function findMockRequest(sql: Sql, id: string): Promise<MockRequestRow | null> {
  const [row] = await sql<
    MockRequestRow[]
  >`select ${sql.unsafe(COLUMNS)} from mock_system_user_requests where id = ${id}`
  return row ?? null
}

/** The live (not deleted) system user for (organisation, externalRef). */
export async function findMockSystemUser(
  sql: Sql,
  partyOrgNo: string,
  externalRef: string,
): Promise<MockRequestRow | null> {
  const [row] = await sql<MockRequestRow[]>`
    select ${sql.unsafe(COLUMNS)} from mock_system_user_requests
    where party_org_no = ${partyOrgNo} and external_ref = ${externalRef} and system_user_id is not null and system_user_deleted_at is null`
  return row ?? null
}

export interface MockDecision {
  status: 'Accepted' | 'Rejected'
  byName: string
  byBasis: string
  at: Date
}

/**
 * Decides a request that is still New and not timed out at `d.at`; an acceptance creates the
 * system user. Null when the request was not (or no longer) open: nothing changed.
 */
export async function decideMockRequest(sql: Sql, id: string, d: MockDecision): Promise<MockRequestRow | null> {
  const [row] = await sql<MockRequestRow[]>`
    update mock_system_user_requests
    set status = ${d.status}, decided_at = ${d.at}, decided_by_name = ${d.byName}, decided_by_basis = ${d.byBasis},
        system_user_id = case when ${d.status === 'Accepted'}::boolean then gen_random_uuid() end
    where id = ${id} and status = 'New' and expires_at > ${d.at}
    returning ${sql.unsafe(COLUMNS)}`
  return row ?? null
}

/**
 * Ends what exists for (organisation, externalRef): deletes a request that created no system
 * user, or marks the system user deleted. Two statements in this order, each with a snapshot of
 * its own: an acceptance that commits while the delete waits on the row is then seen by the
 * update, so a revoke racing an approval never reports "nothing there" while a system user lives.
 */
export async function endMockDelegation(
  sql: Sql,
  partyOrgNo: string,
  externalRef: string,
  now: Date,
): Promise<boolean> {
  const deleted = await sql`
    delete from mock_system_user_requests
    where party_org_no = ${partyOrgNo} and external_ref = ${externalRef} and system_user_id is null and system_user_deleted_at is null
    returning id`
  if (deleted.length > 0) return true
  const ended = await sql`
    update mock_system_user_requests set system_user_deleted_at = ${now}
    where party_org_no = ${partyOrgNo} and external_ref = ${externalRef} and system_user_id is not null and system_user_deleted_at is null
    returning id`
  return ended.length > 0
}
