/**
 * Billing: credits, metering and top-ups (domain/billing/).
 */
import type { CatalogueEntry } from './entry.ts'

export const BILLING_CATALOGUE = {
  INSUFFICIENT_CREDITS: {
    status: 402,
    category: 'billing',
    retryable: false,
    fix_hint_en: 'Pass the top_up_url to the account owner, and call again once the balance has been topped up.',
    fix_hint_nb: 'Gi lenken i «top_up_url» til eieren av kontoen, og send kallet på nytt når saldoen er fylt på.',
    explanation: {
      summary: 'Saldoen er for lav for dette kallet. Ingenting er trukket.',
      summary_en: 'Your prepaid balance is too low for this call. Nothing was charged.',
      why: 'Kallet koster mer enn det som er igjen på den forhåndsbetalte saldoen. Lenken for påfylling står i «top_up_url» i svaret.',
      why_en:
        'The call costs more than what is left on your prepaid balance. The top-up link is in "top_up_url" in the response.',
      fix_steps: [
        'Send lenken i «top_up_url» til eieren av kontoen.',
        'Be eieren godkjenne en påfylling.',
        'Send kallet på nytt når saldoen er fylt på.',
      ],
      fix_steps_en: [
        'Send the link in "top_up_url" to the account owner.',
        'Ask the owner to approve a top-up.',
        'Send the call again once the balance has been topped up.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Lenken i «top_up_url»',
        what: 'Godkjenn en påfylling av den forhåndsbetalte saldoen.',
        what_en: 'Approve a top-up of the prepaid balance.',
        why: 'En påfylling betales med kort og må godkjennes av en person. Agenten kan ikke betale selv.',
        why_en: 'A top-up is paid by card and must be approved by a person. The agent cannot pay on its own.',
      },
    },
  },
  CREDIT_CHECK_UNAVAILABLE: {
    status: 503,
    category: 'billing',
    retryable: true,
    fix_hint_en: 'Wait briefly, honouring Retry-After if present, and send the call again.',
    fix_hint_nb: 'Vent litt, følg «Retry-After» hvis den er satt, og send kallet på nytt.',
    explanation: {
      summary: 'Saldoen kunne ikke leses akkurat nå. Ingenting er trukket.',
      summary_en: 'Your balance could not be read right now. Nothing was charged.',
      why: 'Når vi ikke får lest saldoen, avviser vi kallet i stedet for å risikere feil belastning. Feilen er som regel forbigående.',
      why_en:
        'When we cannot read the balance, we refuse the call rather than risk a wrong charge. This is usually temporary.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send kallet på nytt.',
        'Kontakt Plikt-support med verdien i «X-Correlation-ID» hvis feilen varer.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the call again.',
        'Contact Plikt support with the X-Correlation-ID value if the error persists.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  TOPUP_BELOW_MINIMUM: {
    status: 400,
    category: 'billing',
    retryable: false,
    fix_hint_en: 'Request at least 1000 øre (NOK 10) in amount_ore.',
    fix_hint_nb: 'Be om minst 1000 øre (kr 10) i «amount_ore».',
    explanation: {
      summary: 'Beløpet er under minstebeløpet for påfylling (kr 10).',
      summary_en: 'The amount is below the top-up minimum (NOK 10).',
      why: 'En påfylling må være på minst 1000 øre (kr 10). Beløpet oppgis i øre i «amount_ore».',
      why_en: 'A top-up must be at least 1000 øre (NOK 10). The amount is given in øre in "amount_ore".',
      fix_steps: [
        'Kontroller at beløpet er oppgitt i øre, ikke i kroner.',
        'Send forespørselen på nytt med minst 1000 i «amount_ore».',
      ],
      fix_steps_en: [
        'Check that the amount is given in øre, not in kroner.',
        'Send the request again with at least 1000 in "amount_ore".',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  TOPUP_CEILING_EXCEEDED: {
    status: 400,
    category: 'billing',
    retryable: false,
    fix_hint_en: 'Request no more than the amount in ceiling_ore.',
    fix_hint_nb: 'Be om høyst beløpet i «ceiling_ore».',
    explanation: {
      summary: 'Beløpet er over taket for én påfylling.',
      summary_en: 'The amount is above the ceiling for a single top-up.',
      why: 'Taket er 100 000 øre (kr 1000) ved lansering og kan bli justert. Svaret viser beløpet du ba om («requested_ore») og taket («ceiling_ore»).',
      why_en:
        'The ceiling is 100 000 øre (NOK 1000) at launch and may be adjusted. The response shows the amount you asked for ("requested_ore") and the ceiling ("ceiling_ore").',
      fix_steps: [
        'Les taket i «ceiling_ore».',
        'Send forespørselen på nytt med et beløp som ikke er høyere enn taket.',
        'Del opp i flere påfyllinger hvis du trenger mer; høyst tre kan vente på godkjenning samtidig.',
      ],
      fix_steps_en: [
        'Read the ceiling in "ceiling_ore".',
        'Send the request again with an amount no higher than the ceiling.',
        'Split it into several top-ups if you need more; at most three can await approval at once.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  BILLING_NOT_CONFIGURED: {
    status: 503,
    category: 'billing',
    retryable: false,
    fix_hint_en: 'Report to Plikt support that card payments are not configured, and hold off topping up.',
    fix_hint_nb: 'Meld til Plikt-support at kortbetaling ikke er satt opp, og vent med påfyllingen.',
    explanation: {
      summary: 'Kortbetaling er ikke satt opp i dette miljøet.',
      summary_en: 'Card payments are not configured on this deployment.',
      why: 'Påfylling med kort krever et betalingsoppsett som mangler her. Verken agenten eller eieren av kontoen kan rette det.',
      why_en:
        'Card top-ups need a payment setup that is missing here. Neither the agent nor the account owner can fix that.',
      fix_steps: ['Meld fra til Plikt-support.', 'Vent med påfyllingen til support bekrefter at kortbetaling virker.'],
      fix_steps_en: ['Report it to Plikt support.', 'Hold off the top-up until support confirms card payments work.'],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'service_support',
        where: 'Plikt-support',
        what: 'Sett opp kortbetaling i dette miljøet.',
        what_en: 'Configure card payments on this deployment.',
        why: 'Betalingsoppsettet ligger hos tjenesten, ikke hos kunden.',
        why_en: 'The payment setup belongs to the service, not to the customer.',
      },
    },
  },
} as const satisfies Record<string, CatalogueEntry>
