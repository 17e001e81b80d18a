/**
 * Legacy Altinn 2 role codes and Enhetsregisteret (ER) role codes → their Altinn 3 access packages,
 * from the mapping table in upstreams.md §4.3, with how sure each row is.
 *
 * Basis letters: S = Altinn's seed data (IngestRolePackage: ER role → package); R = Altinn's role map
 * (IngestRoleMap: ER role → the Altinn 2 role it implied); D = Altinn/Digdir state the Altinn 2 role
 * becomes the identical package automatically; N = name match only. `verified` is true only with S,
 * R or D. General Altinn 2 roles (UTINN, REGNA, …) have no 1:1 package — service owners choose
 * packages per service — so they answer an empty list, unverified. Package codes follow Altinn's
 * code (PackageConstants): `revisorattesterer`, `maskinporten-scopes`, where Digdir's documentation
 * spells `reviorattesterer` and `delegerbare-maskinporten-scopes`.
 *
 * Decided: numeric Altinn 2 service codes (e.g. 5600) are not mapped — no service code → resource
 * pairing is confirmed in our sources — and answer NOT_FOUND saying so and where to look.
 * Accepted forms: the bare code in any case, `urn:altinn:rolecode:{code}`, and for ER roles
 * `urn:altinn:external-role:ccr:{slug}`; `FFOR` is read as `FFØR`.
 *
 * `portal2_status` places the injected `now` (its Europe/Oslo date) on Digdir's timeline (§4.1).
 */
import { AppError, validationError } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import { osloDate } from '../../lib/oslo-time.ts'
import type { BasisCode, PortalMigration, Portal2Phase } from '../../schemas/tools.ts'

export type { PortalMigration } from '../../schemas/tools.ts'

export const PORTAL2_TIMELINE = {
  packages_available_from: '2025-12-01',
  submission_stops_on: '2026-05-31',
  closes_on: '2026-06-19',
} as const satisfies Record<string, LocalDate>

type Package = PortalMigration['portal3'][number]

function pkg(code: string, condition: string | null = null): Package {
  return { urn: `urn:altinn:accesspackage:${code}`, package: code, condition }
}

interface Row {
  kind: 'altinn2_role' | 'er_role'
  name: string | null
  /** ER roles: the Altinn 3 slug in `urn:altinn:external-role:ccr:{slug}` */
  slug?: string
  packages: Package[]
  basis: BasisCode[]
  notes: string[]
  /** a general Altinn 2 role without a 1:1 package */
  general?: true
}

// ── Altinn 2 roles ────────────────────────────────────────────────────────────

const HELD_VIA = (er: string) =>
  `Held in Altinn 3 through the ER role ${er}; packages held via ${er} cannot be delegated onward.`
const AUTO = 'Digdir converts existing delegations of this role to the package automatically.'

const A2: Record<string, Row> = {
  A0239: {
    kind: 'altinn2_role',
    name: 'Regnskapsfører med signeringsrettighet',
    packages: [pkg('regnskapsforer-med-signeringsrettighet')],
    basis: ['S', 'R', 'D'],
    notes: ['Only the ER role REGN (regnskapsfører) holds this package; it is not delegable.', AUTO],
  },
  A0240: {
    kind: 'altinn2_role',
    name: 'Regnskapsfører uten signeringsrettighet',
    packages: [pkg('regnskapsforer-uten-signeringsrettighet')],
    basis: ['S', 'R', 'D'],
    notes: [HELD_VIA('REGN (regnskapsfører)'), AUTO],
  },
  A0241: {
    kind: 'altinn2_role',
    name: 'Regnskapsfører lønn',
    packages: [pkg('regnskapsforer-lonn')],
    basis: ['S', 'R', 'D'],
    notes: [HELD_VIA('REGN (regnskapsfører)'), AUTO],
  },
  A0237: {
    kind: 'altinn2_role',
    name: 'Ansvarlig revisor',
    packages: [pkg('ansvarlig-revisor')],
    basis: ['S', 'R', 'D'],
    notes: ['Only the ER role REVI (revisor) holds this package; it is not delegable.', AUTO],
  },
  A0238: {
    kind: 'altinn2_role',
    name: 'Revisormedarbeider',
    packages: [pkg('revisormedarbeider')],
    basis: ['S', 'R', 'D'],
    notes: [HELD_VIA('REVI (revisor)'), AUTO],
  },
  HADM: {
    kind: 'altinn2_role',
    name: 'Hovedadministrator',
    packages: [pkg('hovedadministrator')],
    basis: ['S', 'D'],
    notes: [
      'Held by the ER roles DAGL, LEDE, INNH, DTSO, DTPR and BOBE.',
      'Only a hovedadministrator may delegate the packages post-til-virksomheten-med-taushetsbelagt-innhold and eksplisitt.',
      AUTO,
    ],
  },
  ADMAI: {
    kind: 'altinn2_role',
    name: 'Tilgangsstyring',
    packages: [pkg('tilgangsstyrer')],
    basis: ['S', 'D'],
    notes: ['Held by the key ER roles (DAGL, LEDE, INNH, DTSO, DTPR, KOMP, BEST, BOBE) and by KNUF and REPR.', AUTO],
  },
  KLADM: {
    kind: 'altinn2_role',
    name: 'Klientadministrator',
    packages: [pkg('klientadministrator')],
    basis: ['S', 'D'],
    notes: ['Held by the key ER roles (DAGL, LEDE, INNH, DTSO, DTPR, KOMP, BEST, BOBE).', AUTO],
  },
  BOBEL: {
    kind: 'altinn2_role',
    name: 'Konkursbo lesetilgang',
    packages: [pkg('konkursbo-lesetilgang')],
    basis: ['S', 'R', 'D'],
    notes: ['Held by the ER role BOBE (bostyrer).', AUTO],
  },
  BOBES: {
    kind: 'altinn2_role',
    name: 'Konkursbo skrivetilgang',
    packages: [pkg('konkursbo-skrivetilgang')],
    basis: ['S', 'R', 'D'],
    notes: ['Held by the ER role BOBE (bostyrer).', AUTO],
  },
  BOADM: {
    kind: 'altinn2_role',
    name: 'Konkursbo tilgangsstyring',
    packages: [pkg('konkursbo-tilgangsstyrer')],
    basis: ['N'],
    notes: [
      "Altinn's import of Altinn 2 administrator delegations also converts BOADM to konkursbo-tilgangsstyrer, but no seed data or Digdir statement confirms it.",
    ],
  },
  A0298: {
    kind: 'altinn2_role',
    name: 'Revisorattesterer',
    packages: [pkg('revisorattesterer')],
    basis: ['N'],
    notes: [
      "Altinn's seed data gives revisorattesterer to the key ER roles.",
      "Digdir's documentation spells the package `reviorattesterer`; Altinn's code says `revisorattesterer`, which is used here.",
    ],
  },
  ATTST: {
    kind: 'altinn2_role',
    name: null,
    packages: [pkg('mva-kompensasjon-revisorattesterer')],
    basis: ['N'],
    notes: [],
  },
  APIADM: {
    kind: 'altinn2_role',
    name: 'Programmeringsgrensesnitt (API)',
    packages: [pkg('maskinporten-administrator'), pkg('maskinporten-scopes')],
    basis: ['N'],
    notes: [
      "Altinn's seed data gives maskinporten-administrator to the key ER roles and KNUF.",
      "Altinn's import of Altinn 2 administrator delegations converts APIADM to maskinporten-administrator plus maskinporten-scopes; no seed data or Digdir statement confirms the mapping.",
      "Digdir's documentation spells the second package `delegerbare-maskinporten-scopes`; Altinn's code says `maskinporten-scopes`, which is used here.",
    ],
  },
  A0236: {
    kind: 'altinn2_role',
    name: 'Post/arkiv',
    packages: [pkg('ordinaer-post-til-virksomheten')],
    basis: ['N'],
    notes: ["Altinn's seed data gives ordinaer-post-til-virksomheten to the key ER roles."],
  },
  PAVAD: {
    kind: 'altinn2_role',
    name: 'Patent, varemerke og design',
    packages: [pkg('patent-varemerke-design')],
    basis: ['N'],
    notes: [],
  },
}

const GENERAL: Record<string, string | null> = {
  UTINN: 'Utfyller/Innsender',
  REGNA: 'Regnskapsmedarbeider',
  LOPER: 'Lønn og personalmedarbeider',
  SISKD: 'Signerer av Samordnet registermelding',
  UILUF: null,
  UTOMR: null,
  UIHTL: null,
  KOMAB: null,
  A0212: 'Primærnæring og næringsmiddel',
  A0278: 'Plan- og byggesak',
  HVASK: null,
}
for (const [code, name] of Object.entries(GENERAL)) {
  A2[code] = {
    kind: 'altinn2_role',
    name,
    packages: [],
    basis: [],
    general: true,
    notes: [
      'No official Digdir table maps this role to packages; existing delegations of it are not converted automatically.',
    ],
  }
}

// ── ER roles ──────────────────────────────────────────────────────────────────

const KEY_ROLES = ['DAGL', 'LEDE', 'INNH', 'DTSO', 'DTPR', 'KOMP', 'BEST', 'BOBE'] as const
const TAX = ['skatt-naering', 'skattegrunnlag', 'merverdiavgift', 'krav-og-utlegg', 'saeravgifter']
const EMPLOYMENT = [
  'a-ordning',
  'lonn',
  'ansettelsesforhold',
  'sykefravaer',
  'permisjon',
  'oppgi-naermeste-leder',
  'pensjon',
]
const FINANCE = ['regnskap-okonomi-rapport', 'revisjon', 'toll', 'motorvognavgift', 'kreditt-og-oppgjoer']

function keyRolePackages(role: (typeof KEY_ROLES)[number]): Package[] {
  const bobe = role === 'BOBE'
  const hadm = ['DAGL', 'LEDE', 'INNH', 'DTSO', 'DTPR', 'BOBE'].includes(role)
  return [
    ...(hadm ? ['hovedadministrator'] : []),
    'tilgangsstyrer',
    'klientadministrator',
    'maskinporten-administrator',
    'revisorattesterer',
    'ordinaer-post-til-virksomheten',
    ...TAX,
    ...(bobe ? [] : EMPLOYMENT),
    ...FINANCE,
    ...(bobe ? [] : ['starte-drive-endre-avvikle-virksomhet']),
    'aksjer-og-eierforhold',
    'attester',
    ...(bobe ? ['konkursbo-lesetilgang', 'konkursbo-skrivetilgang'] : []),
  ].map((code) => pkg(code))
}

const KEY_NOTES = [
  'A key ER role: its holders receive these packages from Enhetsregisteret and may delegate them onward.',
  "Altinn's seed data gives the key roles further sector packages (e.g. transport) not in our mapping table; this list is the table's and is not exhaustive.",
]
const NO_PACKAGES = ["Altinn's seed data gives this ER role no access packages."]

const er = (name: string, slug: string, packages: Package[], basis: BasisCode[], notes: string[]): Row => ({
  kind: 'er_role',
  name,
  slug,
  packages,
  basis,
  notes,
})

const ER: Record<string, Row> = {
  DAGL: er('Daglig leder', 'daglig-leder', keyRolePackages('DAGL'), ['S'], KEY_NOTES),
  LEDE: er('Styrets leder', 'styreleder', keyRolePackages('LEDE'), ['S'], KEY_NOTES),
  INNH: er('Innehaver', 'innehaver', keyRolePackages('INNH'), ['S'], KEY_NOTES),
  DTSO: er('Deltaker fullt ansvar', 'deltaker-fullt-ansvar', keyRolePackages('DTSO'), ['S'], KEY_NOTES),
  DTPR: er('Deltaker delt ansvar', 'deltaker-delt-ansvar', keyRolePackages('DTPR'), ['S'], KEY_NOTES),
  KOMP: er(
    'Komplementar',
    'komplementar',
    keyRolePackages('KOMP'),
    ['S'],
    [...KEY_NOTES, 'Not a hovedadministrator: KOMP does not receive the hovedadministrator package.'],
  ),
  BEST: er(
    'Bestyrende reder',
    'bestyrende-reder',
    keyRolePackages('BEST'),
    ['S'],
    [...KEY_NOTES, 'Not a hovedadministrator: BEST does not receive the hovedadministrator package.'],
  ),
  BOBE: er(
    'Bobestyrer',
    'bostyrer',
    keyRolePackages('BOBE'),
    ['S', 'R', 'D'],
    [
      ...KEY_NOTES,
      'Unlike the other key roles, BOBE does not receive the employment packages (a-ordning, lonn, ansettelsesforhold, sykefravaer, permisjon, oppgi-naermeste-leder, pensjon) or starte-drive-endre-avvikle-virksomhet.',
      'The konkursbo packages replace the Altinn 2 roles BOBEL and BOBES.',
    ],
  ),
  REGN: er(
    'Regnskapsfører',
    'regnskapsforer',
    ['regnskapsforer-med-signeringsrettighet', 'regnskapsforer-uten-signeringsrettighet', 'regnskapsforer-lonn'].map(
      (c) => pkg(c),
    ),
    ['S', 'R', 'D'],
    [
      'The packages replace the Altinn 2 roles A0239, A0240 and A0241.',
      'Packages held via REGN cannot be delegated onward.',
    ],
  ),
  REVI: er(
    'Revisor',
    'revisor',
    [pkg('ansvarlig-revisor'), pkg('revisormedarbeider')],
    ['S', 'R', 'D'],
    ['The packages replace the Altinn 2 roles A0237 and A0238.', 'Packages held via REVI cannot be delegated onward.'],
  ),
  FFØR: er(
    'Forretningsfører',
    'forretningsforer',
    [
      pkg(
        'forretningsforer-eiendom',
        'only for organisations of form BRL (housing cooperative) or ESEK (owner section association)',
      ),
      ...TAX.map((c) => pkg(c, 'only when the organisation is a NUF (Norwegian branch of a foreign enterprise)')),
    ],
    ['S'],
    ['Packages held via FFØR cannot be delegated onward.'],
  ),
  KNUF: er(
    'Kontaktperson NUF',
    'kontaktperson-nuf',
    [...TAX, 'tilgangsstyrer', 'maskinporten-administrator'].map((c) => pkg(c)),
    ['S'],
    ['Holders may delegate these packages onward.'],
  ),
  REPR: er(
    'Norsk representant for utenlandsk enhet',
    'norsk-representant',
    [...TAX, 'tilgangsstyrer'].map((c) => pkg(c)),
    ['S'],
    ['Holders may delegate these packages onward.'],
  ),
  MEDL: er('Styremedlem', 'styremedlem', [], ['S'], NO_PACKAGES),
  NEST: er('Nestleder', 'nestleder', [], ['S'], NO_PACKAGES),
  VARA: er('Varamedlem', 'varamedlem', [], ['S'], NO_PACKAGES),
  OBS: er('Observatør', 'observator', [], ['S'], NO_PACKAGES),
  SIGN: er(
    'Signatur',
    'signerer',
    [],
    ['S'],
    [...NO_PACKAGES, 'Signing authority in Enhetsregisteret is not an Altinn access right.'],
  ),
  PROK: er(
    'Prokura',
    'prokurist',
    [],
    ['S'],
    [...NO_PACKAGES, 'Prokura in Enhetsregisteret is not an Altinn access right.'],
  ),
  KONT: er('Kontaktperson', 'kontaktperson', [], ['S'], NO_PACKAGES),
}

const BY_SLUG = new Map(Object.entries(ER).map(([code, row]) => [row.slug!, code]))

// ── Texts ─────────────────────────────────────────────────────────────────────

export const BASIS_EXPLAINED: Record<BasisCode, { en: string; nb: string }> = {
  S: {
    en: "Altinn's own seed data (IngestRolePackage) gives holders of the ER role this package.",
    nb: 'Altinns egne grunndata (IngestRolePackage) gir innehavere av Enhetsregister-rollen denne tilgangspakken.',
  },
  R: {
    en: "Altinn's role map (IngestRoleMap) links the ER role to the Altinn 2 role it gave.",
    nb: 'Altinns rollekart (IngestRoleMap) knytter Enhetsregister-rollen til Altinn 2-rollen den ga.',
  },
  D: {
    en: 'Digdir/Altinn state that existing delegations of the Altinn 2 role become this package automatically.',
    nb: 'Digdir/Altinn opplyser at eksisterende delegeringer av Altinn 2-rollen automatisk blir denne tilgangspakken.',
  },
  N: {
    en: 'Name match only: inferred from the names; no official source confirms it.',
    nb: 'Bare navnelikhet: utledet fra navnene; ingen offisiell kilde bekrefter koblingen.',
  },
}

function list(packages: Package[]): string {
  return packages.map((p) => p.package).join(', ')
}

function explanation(code: string, row: Row, verified: boolean): { en: string; nb: string } {
  const label = row.name ? `${code} (${row.name})` : code
  if (row.general) {
    return {
      en: `${label} is a general Altinn 2 role with no 1:1 access package: each service owner decides which package gives access to each of its services. Look up the service in Altinn's resource registry to see which package it requires, and delegate that.`,
      nb: `${label} er en generell Altinn 2-rolle uten en tilsvarende tilgangspakke: hver tjenesteeier bestemmer hvilken pakke som gir tilgang til hver tjeneste. Slå opp tjenesten i Altinns ressursregister for å se hvilken pakke den krever, og deleger den.`,
    }
  }
  if (row.kind === 'er_role') {
    return row.packages.length === 0
      ? {
          en: `The ER role ${label} gives no access packages in Altinn 3. Someone who can delegate (e.g. the daglig leder or a hovedadministrator) must give a holder the packages they need.`,
          nb: `Enhetsregister-rollen ${label} gir ingen tilgangspakker i Altinn 3. Noen som kan delegere (for eksempel daglig leder eller en hovedadministrator), må gi innehaveren pakkene hen trenger.`,
        }
      : {
          en: `Holders of the ER role ${label} receive these access packages in Altinn 3 automatically from Enhetsregisteret; nothing has to be delegated to them.`,
          nb: `Innehavere av Enhetsregister-rollen ${label} får disse tilgangspakkene i Altinn 3 automatisk fra Enhetsregisteret; ingenting må delegeres til dem.`,
        }
  }
  return verified
    ? {
        en: `The Altinn 2 role ${label} corresponds to ${list(row.packages)} in Altinn 3 (verified). Delegate the package instead of the role: Altinn 2 roles stop granting access when Altinn II closes on 19 June 2026.`,
        nb: `Altinn 2-rollen ${label} tilsvarer ${list(row.packages)} i Altinn 3 (bekreftet). Deleger tilgangspakken i stedet for rollen: Altinn 2-roller gir ingen tilgang etter at Altinn II stenger 19. juni 2026.`,
      }
    : {
        en: `The Altinn 2 role ${label} probably corresponds to ${list(row.packages)} in Altinn 3, but no official source confirms it. Check the package's content in Altinn before delegating it.`,
        nb: `Altinn 2-rollen ${label} tilsvarer trolig ${list(row.packages)} i Altinn 3, men ingen offisiell kilde bekrefter det. Kontroller innholdet i pakken i Altinn før du delegerer den.`,
      }
}

// ── Timeline ──────────────────────────────────────────────────────────────────

export function portal2Status(now: Date): PortalMigration['portal2_status'] {
  const asOf = osloDate(now)
  const t = PORTAL2_TIMELINE
  const phase: Portal2Phase =
    asOf >= t.closes_on
      ? 'closed'
      : asOf >= t.submission_stops_on
        ? 'submission_stopped'
        : asOf >= t.packages_available_from
          ? 'parallel_operation'
          : 'legacy_only'
  const days = Math.round((Date.parse(`${t.closes_on}T00:00:00Z`) - Date.parse(`${asOf}T00:00:00Z`)) / 86_400_000)
  return { phase, as_of: asOf, ...t, days_until_close: Math.max(0, days) }
}

// ── Lookup ────────────────────────────────────────────────────────────────────

const FIELD = 'portal2_code'
const ALLOWED = /^[A-Za-z0-9:_.\-ØÆÅøæå]+$/

function notFound(message: string): AppError {
  return new AppError('NOT_FOUND', { context: { field: FIELD }, details: [{ field: FIELD, message }] })
}

/** The table key for an input, or an error saying why there is none. */
function resolveCode(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0)
    throw validationError([{ field: FIELD, message: 'required: a legacy role code such as "A0239" or "DAGL"' }])
  if (input.length > 64) throw validationError([{ field: FIELD, message: 'at most 64 characters' }])
  if (!ALLOWED.test(input))
    throw validationError([
      { field: FIELD, message: 'only letters (A–Z, Æ, Ø, Å), digits and the characters : _ . - are allowed' },
    ])

  const lower = input.toLowerCase()
  let code: string
  if (lower.startsWith('urn:altinn:rolecode:')) {
    code = input.slice('urn:altinn:rolecode:'.length).toUpperCase()
  } else if (lower.startsWith('urn:altinn:external-role:ccr:')) {
    const slug = lower.slice('urn:altinn:external-role:ccr:'.length)
    const found = BY_SLUG.get(slug)
    if (!found)
      throw notFound(`no mapping for the ER role "${slug}"; mapped ER roles: ${[...BY_SLUG.keys()].join(', ')}`)
    return found
  } else if (lower.startsWith('urn:altinn:accesspackage:')) {
    throw notFound('this is already an Altinn 3 access package, not a legacy code')
  } else if (lower.startsWith('urn:')) {
    throw notFound(
      'unknown identifier form; send a role code, `urn:altinn:rolecode:{code}` or `urn:altinn:external-role:ccr:{slug}`',
    )
  } else {
    code = input.toUpperCase()
  }
  if (code === 'FFOR') code = 'FFØR'
  if (/^\d+$/.test(code)) {
    throw notFound(
      `${code} looks like an Altinn 2 service code. No service code → Altinn 3 resource mapping is confirmed in our sources, so none is given; Altinn's resource registry links a resource to its Altinn 2 service through resourceReferences (ServiceCode/ServiceEditionCode).`,
    )
  }
  if (!A2[code] && !ER[code])
    throw notFound(`no mapping for "${code}"; mapped codes: ${[...Object.keys(A2), ...Object.keys(ER)].join(', ')}`)
  return code
}

/** The Altinn 3 equivalent of a legacy role code, with how sure it is and where the shutdown stands. */
export function portalMigration(input: unknown, now: Date): PortalMigration {
  const code = resolveCode(input)
  const row = (A2[code] ?? ER[code])!
  const verified = row.basis.some((b) => b === 'S' || b === 'R' || b === 'D')
  return {
    portal2_code: code,
    kind: row.kind,
    portal2_name: row.name,
    er_role_urn: row.slug ? `urn:altinn:external-role:ccr:${row.slug}` : null,
    portal3: row.packages.map((p) => ({ ...p })),
    verified,
    basis: [...row.basis],
    basis_explained: row.basis.map((b) => ({ code: b, ...BASIS_EXPLAINED[b] })),
    explanation: explanation(code, row, verified),
    notes: [...row.notes],
    portal2_status: portal2Status(now),
  }
}

/** Every code the table answers for, for documentation and tests. */
export const PORTAL2_CODES: readonly string[] = [...Object.keys(A2), ...Object.keys(ER)]
