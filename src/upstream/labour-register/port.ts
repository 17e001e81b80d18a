/**
 * The labour register (NAV Aa-registeret, contracts/nav-aareg/): active employments of an
 * employer, from which the Tier 2 employee count is derived. Needs delegated access.
 */
export interface LabourRegister {
  readonly mock: boolean
  /**
   * The people in active employments under the organisation (hovedenhet and its underenheter),
   * each counted once however many employments they hold; 0 for an employer with none.
   */
  employeeCount(orgNumber: string, token: string): Promise<number>
}
