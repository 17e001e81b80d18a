/**
 * Regnskapsregisteret's open API: the newest approved annual accounts of a unit (anonymous callers
 * get at most one record: the newest year's company accounts). Raw answers for every status.
 */
import type { RawResponse } from '../raw.ts'

export interface AccountsRegister {
  accounts(orgNumber: string): Promise<RawResponse>
}
