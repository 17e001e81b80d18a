/**
 * Brønnøysundregistrene's open business-register data: Enhetsregisteret (units, sub-units, search,
 * roles, the update feeds) and Fullmakttjenesten (signature and procuration rules). Every method answers
 * the upstream's raw response for any HTTP status it gives (404, 410 … are meaningful); transient
 * failures surface as AppError UPSTREAM_TIMEOUT / UPSTREAM_UNAVAILABLE from upstream/http.ts.
 */
import type { RawResponse } from '../raw.ts'

export interface BusinessRegister {
  unit(orgNumber: string): Promise<RawResponse>
  /** a sub-unit (underenhet: a branch, shop or site) by its own number; asked when `unit` answers 404 */
  subUnit(orgNumber: string): Promise<RawResponse>
  roles(orgNumber: string): Promise<RawResponse>
  signature(orgNumber: string): Promise<RawResponse>
  prokura(orgNumber: string): Promise<RawResponse>
  /** one HAL page of units whose name matches */
  search(name: string, size: number): Promise<RawResponse>
  /** the unit update feed from an update id on (inclusive) */
  updates(fromId: number, size: number): Promise<RawResponse>
  /** the unit update feed from an instant on, to find the first id */
  updatesSince(since: Date, size: number): Promise<RawResponse>
  /** the sub-unit update feed from an update id on (inclusive); its ids are not the unit feed's */
  subUnitUpdates(fromId: number, size: number): Promise<RawResponse>
  /** the sub-unit update feed from an instant on, to find the first id */
  subUnitUpdatesSince(since: Date, size: number): Promise<RawResponse>
}
