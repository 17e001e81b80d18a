/** Saved profiles: thin adapters to domain/profiles, always for the key's own account. */
import { createProfile, deleteProfile, getProfile, listProfiles, replaceProfile } from '../domain/profiles/profiles.ts'
import { AppError } from '../errors/app-error.ts'
import type { Principal } from '../domain/access/types.ts'
import type { Handler } from '../pipeline/context.ts'
import type * as S from '../schemas/profiles.ts'

function owner(p: Principal): string {
  if (p.kind !== 'key') throw new AppError('AUTH_MISSING')
  return p.consumerId
}

type ById = { params: typeof S.ProfileParams }

export const profilesHandlers = {
  createProfile: (async ({ body, deps, principal, now }) => ({
    data: await createProfile(deps.sql, owner(principal), body, now),
  })) satisfies Handler<{ body: typeof S.ProfileBody }>,

  listProfiles: (async ({ deps, principal }) => ({
    data: await listProfiles(deps.sql, owner(principal)),
  })) satisfies Handler,

  getProfile: (async ({ params, deps, principal }) => ({
    data: await getProfile(deps.sql, owner(principal), params.id),
  })) satisfies Handler<ById>,

  replaceProfile: (async ({ params, body, deps, principal, now }) => ({
    data: await replaceProfile(deps.sql, owner(principal), params.id, body, now),
  })) satisfies Handler<ById & { body: typeof S.ProfileBody }>,

  deleteProfile: (async ({ params, deps, principal }) => ({
    data: await deleteProfile(deps.sql, owner(principal), params.id),
  })) satisfies Handler<ById>,
}
