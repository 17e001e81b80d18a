/**
 * What every test holds fixed, in one place: the instant the test clock starts at, and the people
 * of the fixture register (fixtures/servers/business-register) by their fødselsnummer, as a person types it.
 * `test/helpers.ts` re-exports them; a unit test that needs no app imports them from here.
 */

/** The instant a test app's clock starts at (startApp) and unit tests pin their clocks to. */
export const PINNED_NOW = '2026-03-14T09:30:00.000Z'

/** The fixture register's people. */
export const FIXTURE_PEOPLE = {
  /** Posten's general manager (daglig leder), born 12 April 1968 */
  postenGeneralManager: '12046823441',
  /** Posten's chair (styreleder), born 3 November 1959 */
  postenChair: '03115934650',
  /** Posten's deputy chair (nestleder), born 19 February 1971 */
  postenDeputyChair: '19027145615',
  /** the register-magic companies' chair, born 1 January 1970 */
  magicChair: '01017000027',
} as const
