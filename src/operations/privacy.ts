/** Data-subject requests (GDPR): anyone may file one; the operator answers (admin.ts lists them). */
import * as A from '../schemas/access.ts'
import { op, type Operation } from './define.ts'

export const privacyOperations = [
  op({
    id: 'submitPrivacyRequest',
    summaryNb: 'Bruk en personvernrettighet (innsyn, retting, sletting, begrensning, dataportabilitet, protest)',
    method: 'POST',
    path: '/api/v1/privacy/dsr',
    category: 'A',
    format: 'envelope',
    tag: 'Privacy',
    summary: 'Exercise a data-protection right (access, rectification, erasure, restriction, portability, objection)',
    description:
      'Records the request and answers with a reference and the date by which a person will reply by e-mail ' +
      '(one month, GDPR art. 12 (3)). Nothing is changed or deleted automatically. Limited to 10 requests a minute per IP.',
    request: { body: A.PrivacyRequestBody },
    response: A.PrivacyRequestReceipt,
    successStatus: 201,
    limits: [{ per: 'ip', max: 10, window: 'minute', code: 'RATE_LIMIT_EXCEEDED' }],
  }),
] as const satisfies readonly Operation[]
