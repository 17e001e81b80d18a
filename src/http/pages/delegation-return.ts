/**
 * The return page: where the digital agency (Altinn, or the mock's approval page) sends a person
 * after they approved or rejected a system-user request — each request's redirectUrl. The visit
 * asks the agency at once about the young pending requests (domain/delegation/refresh.ts), so the
 * agent that asked sees the delegation active as soon as the person is back, and tells the person,
 * in bokmål and English, that they may return to their agent. The agency does not say which
 * request the visit is about, so the page names none.
 */
import type { Handler } from '../../pipeline/context.ts'
import { bi, htmlResponse, page } from '../html.ts'

export const delegationReturnHandlers = {
  delegationReturned: (async ({ deps }) => {
    // A failed sweep leaves the job to record the answer within seconds; the person is told the same.
    await deps.delegationReturns
      .afterReturn()
      .catch((e: unknown) =>
        deps.logger.warn('return visit: asking the agency failed; the refresh job will', { error: String(e) }),
      )
    return htmlResponse(
      page(
        'Takk – gå tilbake til agenten din',
        `<h1 id="returned">${bi('Takk, svaret ditt er registrert', 'Thank you, your answer is recorded')}</h1>
<p>${bi(
          'Plikt har spurt Digitaliseringsdirektoratet om forespørselen du nettopp besvarte. Du kan nå gå tilbake til agenten din (programmet eller assistenten som ba deg om tilgangen) og si at du er ferdig.',
          'Plikt has asked the Norwegian Digitalisation Agency about the request you just answered. You may now return to your agent (the program or assistant that asked you for access) and tell it you are done.',
        )}</p>
<p class="note">${bi(
          'Agenten ser tilgangen som aktiv i løpet av noen sekunder. Du kan lukke denne siden.',
          'The agent sees the access as active within a few seconds. You may close this page.',
        )}</p>`,
      ),
    )
  }) satisfies Handler,
}
