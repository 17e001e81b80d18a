/**
 * The qualitative comparison of integrating the government systems directly with using Plikt, over
 * the spec's nine dimensions. Qualitative on purpose: no figures, no multipliers, no durations —
 * what each side has to build or run, and which of Plikt's operations does it (`evidence`, operation
 * ids the handler checks against the registry, so a claim cannot outlive the operation behind it).
 */
export interface Dimension {
  dimension: string
  name_en: string
  name_nb: string
  direct_integration_en: string
  direct_integration_nb: string
  plikt_en: string
  plikt_nb: string
  /** registry operation ids that carry Plikt's side of the claim */
  evidence: string[]
}

export const DIMENSIONS: readonly Dimension[] = [
  {
    dimension: 'authentication',
    name_en: 'Authentication',
    name_nb: 'Autentisering',
    direct_integration_en:
      'Register a client at the token service, manage a business certificate or signing key, build and sign JWT grants, and refresh tokens per system and scope.',
    direct_integration_nb:
      'Registrere en klient i tokentjenesten, forvalte virksomhetssertifikat eller signeringsnøkkel, bygge og signere JWT-grants og fornye tokener per system og scope.',
    plikt_en: 'One API key (or an OAuth token for MCP hosts); Plikt holds the government client and its tokens.',
    plikt_nb: 'Én API-nøkkel (eller et OAuth-token for MCP-verter); Plikt har klienten mot det offentlige og tokenene.',
    evidence: ['getUsage', 'redeemIssuanceToken', 'getProtectedResourceMetadata'],
  },
  {
    dimension: 'delegation',
    name_en: 'Delegation',
    name_nb: 'Delegering',
    direct_integration_en:
      'Register a system in the system register, create system-user requests, send the signing authority to approve them, and poll or track their state.',
    direct_integration_nb:
      'Registrere et system i systemregisteret, opprette forespørsler om systembruker, sende signaturberettiget til godkjenning og følge med på tilstanden.',
    plikt_en:
      'One call brokers the request and returns the approval link; the state machine, the follow-up and a signed receipt come with it.',
    plikt_nb:
      'Ett kall formidler forespørselen og gir godkjenningslenken; tilstandsmaskinen, oppfølgingen og en signert kvittering følger med.',
    evidence: ['delegateSystemUser', 'requestFullmakt', 'getFullmakt', 'revokeFullmakt'],
  },
  {
    dimension: 'audit_trail',
    name_en: 'Audit trail',
    name_nb: 'Revisjonsspor',
    direct_integration_en:
      'Design and keep your own log of who did what for which company, and prove later that it was not altered.',
    direct_integration_nb:
      'Utforme og føre en egen logg over hvem som gjorde hva for hvilket selskap, og senere bevise at den ikke er endret.',
    plikt_en:
      'An append-only audit log, signed receipts for delegations and filings, and daily Merkle anchors over every upstream answer used.',
    plikt_nb:
      'En logg det bare kan legges til i, signerte kvitteringer for delegeringer og innsendinger, og daglige Merkle-ankre over hvert svar fra kildene.',
    evidence: ['listFullmaktReceipts', 'getReceiptKey', 'listAnchors', 'getAnchorProof'],
  },
  {
    dimension: 'legal_grounding',
    name_en: 'Legal grounding',
    name_nb: 'Rettslig forankring',
    direct_integration_en:
      'Read the acts and regulations yourself, encode which obligations apply to which company, and follow every change in the law.',
    direct_integration_nb:
      'Lese lover og forskrifter selv, kode hvilke plikter som gjelder for hvilket selskap, og følge hver lovendring.',
    plikt_en:
      'A versioned rulebook: every obligation names its legal basis, and every answer names the rulebook version it was computed with.',
    plikt_nb:
      'En versjonert regelbok: hver plikt oppgir rettslig grunnlag, og hvert svar oppgir regelbokversjonen det er beregnet med.',
    evidence: ['getPublicObligations', 'getCompanyObligations'],
  },
  {
    dimension: 'error_handling',
    name_en: 'Error handling',
    name_nb: 'Feilhåndtering',
    direct_integration_en:
      'Interpret each system’s own error formats, status codes and languages, and decide per error whether a retry is safe.',
    direct_integration_nb:
      'Tolke hvert systems egne feilformater, statuskoder og språk, og avgjøre for hver feil om et nytt forsøk er trygt.',
    plikt_en:
      'One closed catalogue of error codes, each with retryable, fix hints in bokmål and English, and an explainer an agent can call.',
    plikt_nb:
      'Én lukket katalog av feilkoder, hver med retryable, rettehint på bokmål og engelsk, og en forklarer en agent kan kalle.',
    evidence: ['listErrors', 'explainError'],
  },
  {
    dimension: 'deadline_intelligence',
    name_en: 'Deadline intelligence',
    name_nb: 'Fristinnsikt',
    direct_integration_en:
      'Compute due dates from the rules yourself, including public holidays, weekend shifts and the exceptions where a date does not move.',
    direct_integration_nb:
      'Beregne frister fra reglene selv, med helligdager, forskyvning over helger og unntakene der en dato ikke flyttes.',
    plikt_en: 'Deadlines per company and per year, with the holiday calendar and each rule’s shift policy applied.',
    plikt_nb:
      'Frister per selskap og per år, med helligdagskalenderen og hver regels forskyvningsregel lagt til grunn.',
    evidence: ['getPublicDeadlines', 'getCompanyDeadlines'],
  },
  {
    dimension: 'cross_agency_orchestration',
    name_en: 'Cross-agency orchestration',
    name_nb: 'Samordning på tvers av etater',
    direct_integration_en:
      'Combine the business register, the tax authority, the filing portal, the labour register and the central bank, each with its own protocol, identifiers and availability.',
    direct_integration_nb:
      'Sette sammen Enhetsregisteret, Skatteetaten, Altinn, Aa-registeret og Norges Bank, hver med egen protokoll, egne identifikatorer og egen tilgjengelighet.',
    plikt_en:
      'One company summary and one filing flow over all of them, with caching, circuit breakers and provenance of every source.',
    plikt_nb:
      'Ett selskapssammendrag og én innsendingsflyt over alle, med mellomlagring, kretsbrytere og sporbarhet for hver kilde.',
    evidence: ['getCompanySummary', 'validateAction', 'executeAction'],
  },
  {
    dimension: 'maintenance_burden',
    name_en: 'Maintenance burden',
    name_nb: 'Vedlikeholdsbyrde',
    direct_integration_en:
      'Follow each agency’s API versions, certificate renewals, portal migrations and changes in the law, and update your integration for each.',
    direct_integration_nb:
      'Følge hver etats API-versjoner, fornyelse av sertifikater, portalmigreringer og lovendringer, og oppdatere integrasjonen for hver av dem.',
    plikt_en:
      'Plikt follows them; its answers carry the schema and rulebook versions, and the portal-migration table maps legacy codes.',
    plikt_nb:
      'Plikt følger med på dem; svarene oppgir skjema- og regelbokversjon, og tabellen for portalmigrering oversetter eldre koder.',
    evidence: ['getPortalMigration', 'getChanges'],
  },
  {
    dimension: 'time_to_first_call',
    name_en: 'Time to first call',
    name_nb: 'Tid til første kall',
    direct_integration_en:
      'Apply for access to each system and its test environment, and wait for approvals before a first authenticated call.',
    direct_integration_nb:
      'Søke om tilgang til hvert system og testmiljøet, og vente på godkjenninger før et første autentisert kall.',
    plikt_en: 'The public routes and the sandbox answer without sign-up; a key is one sign-in away.',
    plikt_nb: 'De åpne tjenestene og sandkassen svarer uten registrering; en nøkkel er én innlogging unna.',
    evidence: ['getPublicDeadlines', 'getSandboxFixtures', 'signup'],
  },
]

export const COMPARISON_METHODOLOGY = {
  en: 'Qualitative: for each dimension, what an integrator must build or run to reach the government systems directly, against what Plikt provides, and the operations that provide it. No figures are claimed, because effort and time depend on the integrator and the agency.',
  nb: 'Kvalitativ: for hver dimensjon, hva en integrator må bygge eller drive for å nå de offentlige systemene direkte, mot hva Plikt gir, og hvilke operasjoner som gir det. Ingen tall oppgis, fordi innsats og tid avhenger av integratoren og etaten.',
}

export const COMPARISON_SOURCE =
  'Plikt’s operation registry and documentation, and the published integration guides of the agencies named in each dimension'
