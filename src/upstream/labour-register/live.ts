/**
 * The labour register over real HTTP (NAV Aa-registeret, contracts/nav-aareg/): one GraphQL query
 * for the employer's active employments reported through the a-ordning, asking only for each
 * employment's employee identity, which map.ts counts distinct people by and drops. Employment
 * types counted: ordinary, maritime and the simplified scheme; freelancers and fee recipients are
 * not employees.
 *
 * The variables object must be named `finnArbeidsforholdVariabler`: the register reads it by that
 * key from the request's variables (as its own query file names it), whatever the query declares.
 */
import { AppError } from '../../errors/app-error.ts'
import type { UpstreamClient } from '../http.ts'
import { mapEmployments } from './map.ts'
import type { LabourRegister } from './port.ts'

export const LABOUR_REGISTER_NAME = 'Aa-registeret'
export const LABOUR_REGISTER_SCOPE = 'nav:aareg/v1/arbeidsforhold'

export const EMPLOYMENTS_QUERY = `query finnArbeidsforhold($finnArbeidsforholdVariabler: FinnArbeidsforholdVariabler) {
  finnArbeidsforhold(finnArbeidsforholdVariabler: $finnArbeidsforholdVariabler) {
    arbeidsforhold { arbeidstaker { ident } }
  }
}`

/** The query's variables for an employer: active employments of the kinds that make employees. */
export function employmentsVariables(orgNumber: string) {
  return {
    finnArbeidsforholdVariabler: {
      opplysningspliktigId: orgNumber,
      arbeidsforholdtype: ['ordinaertArbeidsforhold', 'maritimtArbeidsforhold', 'forenkletOppgjoersordning'],
      rapporteringsordning: ['A_ORDNINGEN'],
      arbeidsforholdstatus: ['AKTIV'],
    },
  }
}

export class LiveLabourRegister implements LabourRegister {
  readonly mock = false

  constructor(
    /** e.g. https://aareg-dist-api.nav.no, no trailing slash */
    private readonly baseUrl: string,
    private readonly client: UpstreamClient,
  ) {}

  async employeeCount(orgNumber: string, token: string): Promise<number> {
    const res = await this.client.request(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: EMPLOYMENTS_QUERY, variables: employmentsVariables(orgNumber) }),
    })
    const context = { upstream_system: LABOUR_REGISTER_NAME }
    if (res.status !== 200)
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: LABOUR_REGISTER_NAME, upstream_status: res.status },
      })
    const answer = mapEmployments(res.text)
    if (!answer.ok)
      throw new AppError('GOVERNMENT_API_ERROR', {
        context,
        extra: { upstream_system: LABOUR_REGISTER_NAME, reason: 'unreadable answer' },
        cause: new Error(answer.reason),
      })
    return answer.count
  }
}
