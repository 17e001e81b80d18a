/**
 * The labour register (NAV Aa-registeret, reference/flows.md §5): active employments of an
 * employer, from which the Tier 2 employee count is derived. Needs delegated access.
 */
export interface LabourRegister {
  readonly mock: boolean
  /** active employments under the organisation (hovedenhet and its underenheter); null when the register does not know it */
  employeeCount(orgNumber: string, token: string): Promise<number | null>
}
