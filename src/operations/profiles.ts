/**
 * Saved profiles (spec: "Saved profile"; the spec shows no paths, these are ours). Keyed with
 * `read:actions`: keys carry only read scopes (write:, act: and delegate: are reserved for people),
 * and a profile exists to feed the execute route, which a key needs read:actions for — so a key
 * that may prepare a filing may keep its presets, and one that may not has no use for them.
 * Profiles belong to the account: every key of it sees the same ones. No MCP tools: the spec
 * names none, and an agent reaches them over REST.
 */
import * as S from '../schemas/profiles.ts'
import { op, type Def, type Operation } from './define.ts'

const SHARED = {
  category: 'B',
  format: 'envelope',
  tag: 'Saved profiles',
  scope: 'read:actions',
} as const satisfies Partial<Def>

export const profilesOperations = [
  op({
    ...SHARED,
    id: 'createProfile',
    summaryNb: 'Lagre en profil: et navn og forhåndsvalgte org_number, action og payload',
    method: 'POST',
    path: '/api/v1/profiles',
    summary: 'Save a profile: a name and a preset of org_number, action and payload',
    description:
      '`config` allows only `org_number` (nine digits, MOD-11), `action` (`mva_melding` or `a_melding`) and `payload` ' +
      '(any JSON object up to 64 KiB as UTF-8 JSON), each optional. A key- or token-shaped string anywhere in it — ' +
      'API keys and issuance tokens (`svc_…`), approval tokens (`apt_…`), webhook secrets (`whsec_…`), JWTs such as ' +
      'Maskinporten and Altinn tokens, `Bearer …` — or a fødselsnummer, in a value or a property name, is refused with ' +
      '400 `VALIDATION_FAILED` naming its path and never repeating it. At most 100 profiles an account: the 101st is ' +
      '400 `VALIDATION_FAILED` naming `profiles`. Supports `Idempotency-Key`.',
    request: { body: S.ProfileBody },
    response: S.Profile,
    successStatus: 201,
    idempotency: 'optional',
  }),
  op({
    ...SHARED,
    id: 'listProfiles',
    summaryNb: 'Kontoens lagrede profiler',
    method: 'GET',
    path: '/api/v1/profiles',
    summary: 'The account’s saved profiles',
    description:
      'Every profile of the account, most recently changed first. At most 100 exist, so the list is whole: no pages.',
    response: S.ProfileList,
  }),
  op({
    ...SHARED,
    id: 'getProfile',
    summaryNb: 'Én lagret profil',
    method: 'GET',
    path: '/api/v1/profiles/:id',
    summary: 'One saved profile',
    description: 'Another account’s profile is 404 `NOT_FOUND`, as one that does not exist.',
    request: { params: S.ProfileParams },
    response: S.Profile,
  }),
  op({
    ...SHARED,
    id: 'replaceProfile',
    summaryNb: 'Erstatt navnet og oppsettet til en lagret profil',
    method: 'PUT',
    path: '/api/v1/profiles/:id',
    summary: 'Replace a saved profile’s name and config',
    description:
      'The body replaces the profile whole (a `config` left out becomes `{}`), checked as on creation; `updated_at` ' +
      'moves. Another account’s profile is 404 `NOT_FOUND`.',
    request: { params: S.ProfileParams, body: S.ProfileBody },
    response: S.Profile,
  }),
  op({
    ...SHARED,
    id: 'deleteProfile',
    summaryNb: 'Slett en lagret profil',
    method: 'DELETE',
    path: '/api/v1/profiles/:id',
    summary: 'Delete a saved profile',
    description: 'Deleted for good. A profile already deleted, or another account’s, is 404 `NOT_FOUND`.',
    request: { params: S.ProfileParams },
    response: S.DeletedProfile,
  }),
] as const satisfies readonly Operation[]
