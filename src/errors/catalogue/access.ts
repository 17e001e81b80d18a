/**
 * Access: getting and managing credentials — API keys and their scopes, issuance tokens, and OAuth
 * for MCP hosts (domain/access/).
 */
import type { CatalogueEntry } from './entry.ts'

export const ACCESS_CATALOGUE = {
  ISSUANCE_TOKEN_INVALID: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask the account owner to mint a new issuance token in the dashboard, then redeem it once.',
    fix_hint_nb: 'Be eieren av kontoen lage et nytt utstedelsestoken i dashbordet, og løs det inn én gang.',
    explanation: {
      summary: 'Utstedelsestokenet kan ikke brukes.',
      summary_en: 'The issuance token cannot be used.',
      why: 'Tokenet er utløpt, allerede brukt, trukket tilbake eller ukjent. Av sikkerhetshensyn sier vi ikke hvilket av disse som gjelder.',
      why_en:
        'The token has expired, was already used, was revoked or is unknown. For security reasons we do not say which.',
      fix_steps: [
        'Kontroller at du sender tokenet nøyaktig slik du fikk det.',
        'Be eieren av kontoen lage et nytt utstedelsestoken i dashbordet. Det gjelder i 24 timer og kan brukes én gang.',
        'Løs inn det nye tokenet.',
      ],
      fix_steps_en: [
        'Check that you send the token exactly as you received it.',
        'Ask the account owner to mint a new issuance token in the dashboard. It is valid for 24 hours and can be used once.',
        'Redeem the new token.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Plikt-dashbordet (/dashboard)',
        what: 'Lag et nytt utstedelsestoken, og gi det til agenten på en sikker måte.',
        what_en: 'Mint a new issuance token and pass it to the agent securely.',
        why: 'Utstedelsestokener kan bare lages i dashbordet, av eieren av kontoen.',
        why_en: 'Issuance tokens can only be minted in the dashboard, by the account owner.',
      },
    },
  },
  OAUTH_TOKEN_INVALID: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Get a new access token from the authorization server and send it as a Bearer token.',
    fix_hint_nb: 'Hent et nytt tilgangstoken fra autorisasjonsserveren, og send det som Bearer-token.',
    explanation: {
      summary: 'OAuth-tokenet er ugyldig.',
      summary_en: 'The OAuth access token is invalid.',
      why: 'Vi kunne ikke verifisere tokenet, for eksempel signaturen, formatet eller utstederen. Derfor godtar ikke MCP-serveren det.',
      why_en:
        'We could not verify the token, for example its signature, format or issuer, so the MCP server does not accept it.',
      fix_steps: [
        'Hent et nytt tilgangstoken fra autorisasjonsserveren.',
        'Send det i headeren «Authorization: Bearer <token>».',
      ],
      fix_steps_en: [
        'Get a new access token from the authorization server.',
        'Send it in the header "Authorization: Bearer <token>".',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  OAUTH_TOKEN_EXPIRED: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Renew the access token with the authorization server and call again with the new token.',
    fix_hint_nb: 'Forny tilgangstokenet hos autorisasjonsserveren, og kall på nytt med det nye tokenet.',
    explanation: {
      summary: 'OAuth-tokenet er utløpt.',
      summary_en: 'The OAuth access token has expired.',
      why: 'Tilgangstokenet har passert utløpstiden («exp»). Det må fornyes før MCP-serveren godtar kall igjen.',
      why_en:
        'The access token is past its expiry time ("exp") and must be renewed before the MCP server accepts calls again.',
      fix_steps: ['Be autorisasjonsserveren om et nytt tilgangstoken.', 'Send kallet på nytt med det nye tokenet.'],
      fix_steps_en: ['Ask the authorization server for a new access token.', 'Send the call again with the new token.'],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  OAUTH_AUDIENCE_MISMATCH: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Request a token whose audience is the resource named in the protected-resource metadata.',
    fix_hint_nb: 'Be om et token med ressursen fra metadataene for den beskyttede ressursen som mottaker.',
    explanation: {
      summary: 'OAuth-tokenet er ikke utstedt for denne MCP-serveren.',
      summary_en: 'The OAuth token was not issued for this MCP server.',
      why: 'Mottakeren («aud») i tokenet samsvarer ikke med ressursen til MCP-serveren. Et token for en annen tjeneste kan ikke brukes her.',
      why_en:
        'The audience ("aud") in the token does not match this MCP server\'s resource. A token for another service cannot be used here.',
      fix_steps: [
        'Les «resource» i /.well-known/oauth-protected-resource/api/mcp.',
        'Be om et nytt token med denne verdien som ressurs.',
        'Send kallet på nytt med det nye tokenet.',
      ],
      fix_steps_en: [
        'Read "resource" in /.well-known/oauth-protected-resource/api/mcp.',
        'Request a new token with that value as the resource.',
        'Send the call again with the new token.',
      ],
      relevant_link: 'https://www.rfc-editor.org/rfc/rfc9728',
      legal_basis: null,
      handover: null,
    },
  },
  OAUTH_SUBJECT_UNMAPPED: {
    status: 401,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Ask the account owner to reconnect the MCP host at /oauth/consent.',
    fix_hint_nb: 'Be eieren av kontoen koble til MCP-verten på nytt via /oauth/consent.',
    explanation: {
      summary: 'OAuth-brukeren er ikke koblet til en Plikt-konto.',
      summary_en: 'The OAuth user is not linked to a Plikt account.',
      why: 'Tokenet er gyldig, men ingen Plikt-konto er koblet til brukeren. Koblingen lages når eieren godkjenner tilkoblingen, og den kan ha blitt fjernet.',
      why_en:
        'The token is valid, but no Plikt account is linked to its user. The link is made when the owner approves the connection, and it may have been removed.',
      fix_steps: [
        'Be om et tilgangstoken med eierens bekreftede e-postadresse (omfanget «email»); bare da kan koblingen godkjennes.',
        'Be eieren av kontoen koble til på nytt via /oauth/consent.',
        'Sørg for at kontoen har færre enn tre aktive nøkler, ellers blir ingenting godkjent.',
        'Send kallet på nytt når tilkoblingen er godkjent.',
      ],
      fix_steps_en: [
        'Request an access token carrying the owner\'s verified e-mail (the "email" scope); only then can the link be approved.',
        'Ask the account owner to reconnect at /oauth/consent.',
        'Make sure the account has fewer than three active keys, or nothing is approved.',
        'Send the call again once the connection is approved.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: '/oauth/consent',
        what: 'Logg inn, og godkjenn tilkoblingen av MCP-verten på nytt.',
        what_en: 'Sign in and approve the MCP host connection again.',
        why: 'Bare eieren av kontoen kan godkjenne at en MCP-vert får tilgang.',
        why_en: 'Only the account owner can approve access for an MCP host.',
      },
    },
  },
  OAUTH_IDENTITY_MISMATCH: {
    status: 403,
    category: 'auth',
    retryable: false,
    fix_hint_en:
      "Approve only your own MCP host, signed in at the authorization server with this account's e-mail, verified.",
    fix_hint_nb:
      'Godkjenn bare din egen MCP-vert, logget inn hos autorisasjonsserveren med kontoens e-postadresse, bekreftet.',
    explanation: {
      summary: 'OAuth-identiteten kan ikke kobles til denne kontoen.',
      summary_en: 'The OAuth identity cannot be linked to this account.',
      why: 'En tilkobling kobles bare til kontoen med den bekreftede e-postadressen i tilgangstokenet («email», «email_verified»). Slik kan ingen få din konto ved å sende deg en lenke.',
      why_en:
        'A connection is linked only to the account whose e-mail the access token carries as verified ("email", "email_verified"), so nobody can get your account by sending you a link.',
      fix_steps: [
        'Godkjenn bare tilkoblinger du selv har startet fra din egen MCP-vert.',
        'Logg inn hos autorisasjonsserveren med e-postadressen til Plikt-kontoen, og bekreft adressen der.',
        'La MCP-verten be om omfanget «email», og åpne tilkoblingslenken på nytt.',
      ],
      fix_steps_en: [
        'Approve only connections you started yourself from your own MCP host.',
        "Sign in at the authorization server with your Plikt account's e-mail address, and verify it there.",
        'Have the MCP host request the "email" scope, then open the consent link again.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  OAUTH_JWKS_UNAVAILABLE: {
    status: 503,
    category: 'auth',
    retryable: true,
    fix_hint_en: 'Wait briefly, honouring Retry-After if present, and retry with the same token.',
    fix_hint_nb: 'Vent litt, følg «Retry-After» hvis den er satt, og prøv igjen med samme token.',
    explanation: {
      summary: 'Nøklene for å verifisere OAuth-tokenet er ikke tilgjengelige nå.',
      summary_en: 'The keys for verifying the OAuth token are unavailable right now.',
      why: 'Vi fikk ikke hentet de offentlige nøklene (JWKS) fra autorisasjonsserveren. Tokenet ditt kan godt være gyldig.',
      why_en: 'We could not fetch the public keys (JWKS) from the authorization server. Your token may well be valid.',
      fix_steps: [
        'Vent litt, og følg «Retry-After» hvis svaret har den headeren.',
        'Send kallet på nytt med samme token.',
      ],
      fix_steps_en: [
        'Wait a moment, honouring Retry-After if the response has that header.',
        'Send the call again with the same token.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  OAUTH_DISABLED: {
    status: 404,
    category: 'auth',
    retryable: false,
    fix_hint_en: 'Configure the MCP host with an API key instead of OAuth.',
    fix_hint_nb: 'Sett opp MCP-verten med en API-nøkkel i stedet for OAuth.',
    explanation: {
      summary: 'OAuth for MCP er ikke slått på i dette miljøet.',
      summary_en: 'OAuth for MCP is not enabled on this deployment.',
      why: 'Dette miljøet tilbyr ikke OAuth-pålogging for MCP-verter. Tilgang gis her bare med API-nøkkel.',
      why_en: 'This deployment does not offer OAuth sign-in for MCP hosts. Access here is by API key only.',
      fix_steps: [
        'Sett opp MCP-verten med en API-nøkkel i stedet for OAuth.',
        'Send nøkkelen i headeren «Authorization: Bearer <nøkkel>».',
      ],
      fix_steps_en: [
        'Configure the MCP host with an API key instead of OAuth.',
        'Send the key in the header "Authorization: Bearer <key>".',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: null,
    },
  },
  SCOPE_RESERVED: {
    status: 403,
    category: 'scope',
    retryable: false,
    fix_hint_en: 'Remove write:, act: and delegate: scopes from the key request and use the approval flow instead.',
    fix_hint_nb:
      'Fjern tilganger som begynner med «write:», «act:» eller «delegate:», og bruk godkjenningsflyten i stedet.',
    explanation: {
      summary: 'Tilgangen du ba om, er reservert og kan ikke gis til en API-nøkkel.',
      summary_en: 'The requested scope is reserved and cannot be assigned to an API key.',
      why: 'Tilganger som begynner med «write:», «act:» eller «delegate:», gjelder handlinger som en person må godkjenne. De kan derfor ikke legges på en nøkkel.',
      why_en:
        'Scopes beginning with "write:", "act:" or "delegate:" cover actions a person must approve, so they cannot be put on a key.',
      fix_steps: [
        'Fjern de reserverte tilgangene fra forespørselen.',
        'Bruk godkjenningsflyten med «X-Approval-Token» for handlinger som krever en person.',
        'Kontakt Plikt-support hvis du mener at kontoen trenger en slik tilgang.',
      ],
      fix_steps_en: [
        'Remove the reserved scopes from the request.',
        'Use the approval flow with X-Approval-Token for actions that need a person.',
        'Contact Plikt support if you believe the account needs such a scope.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'service_support',
        where: 'Plikt-support',
        what: 'Vurder om og hvordan kontoen skal få tilgang til den reserverte handlingen.',
        what_en: 'Assess whether and how the account should get access to the reserved action.',
        why: 'Reserverte tilganger kan ikke tildeles gjennom selvbetjening.',
        why_en: 'Reserved scopes cannot be granted through self-service.',
      },
    },
  },
  MAX_KEYS_REACHED: {
    status: 409,
    category: 'billing',
    retryable: false,
    fix_hint_en: 'Ask the account owner to revoke an unused key in the dashboard before creating a new one.',
    fix_hint_nb: 'Be eieren av kontoen trekke tilbake en ubrukt nøkkel i dashbordet før en ny lages.',
    explanation: {
      summary: 'Kontoen har allerede tre aktive API-nøkler.',
      summary_en: 'The account already has three active API keys.',
      why: 'En konto kan ha høyst tre aktive nøkler. En av dem må trekkes tilbake før en ny kan lages. Et utstedelsestoken du prøvde å løse inn, er fortsatt gyldig.',
      why_en:
        'An account can have at most three active keys, so one must be revoked before another is created. An issuance token you tried to redeem is still valid.',
      fix_steps: [
        'Be eieren av kontoen trekke tilbake en nøkkel som ikke er i bruk, i dashbordet.',
        'Løs inn utstedelsestokenet eller lag nøkkelen på nytt når det er gjort.',
      ],
      fix_steps_en: [
        'Ask the account owner to revoke a key that is no longer used, in the dashboard.',
        'Redeem the issuance token or create the key again once that is done.',
      ],
      relevant_link: null,
      legal_basis: null,
      handover: {
        who: 'company_admin',
        where: 'Plikt-dashbordet (/dashboard)',
        what: 'Trekk tilbake en API-nøkkel som ikke lenger er i bruk.',
        what_en: 'Revoke an API key that is no longer in use.',
        why: 'Nøkler kan bare trekkes tilbake i dashbordet, av eieren av kontoen.',
        why_en: 'Keys can only be revoked in the dashboard, by the account owner.',
      },
    },
  },
} as const satisfies Record<string, CatalogueEntry>
