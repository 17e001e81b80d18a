import { AppError, validationError } from '../../errors/app-error.ts'
import type { ErrorCode } from '../../errors/catalogue/index.ts'
import {
  PUBLIC_SANDBOX_ORG,
  RESERVED_ERROR_ORGS,
  sandboxCompany,
  type SandboxCompany,
} from '../../../fixtures/sandbox/companies.ts'
import { inSandboxSeries, syntheticCompany } from './synthetic.ts'

/** What the org rule needs to know of the request (the sandbox state of src/pipeline/sandbox.ts has it). */
export interface SandboxRequestFlags {
  /** on the public mirror */
  readonly public: boolean
  /** a write-side route (plan, approval token, execute) */
  readonly writeSide: boolean
  /** set when the answer is a simulated failure (`_meta.simulated`) */
  simulated: boolean
}

/**
 * The sandbox company of a number: its hand-written fixture, else the synthetic company of a
 * number in a valid series; undefined for any other number. Every sandbox read goes through this.
 */
export function sandboxCompanyOf(org: string): SandboxCompany | undefined {
  return sandboxCompany(org) ?? (inSandboxSeries(org) ? syntheticCompany(org) : undefined)
}

/**
 * The organisation a route is about: the public mirror serves only its own org, reserved error
 * orgs answer their error, and an org outside the fixtures and the valid series is 404 on reads but
 * 400 on write-side routes.
 */
export function sandboxOrg(org: string, where: SandboxRequestFlags): SandboxCompany {
  // The public mirror serves one organisation, full stop: the reserved error orgs are "other
  // nine-digit orgs" there too (spec: public mirror). Its callers rehearse failures with the knobs.
  if (where.public && org !== PUBLIC_SANDBOX_ORG)
    throw new AppError('PUBLIC_SANDBOX_ORG_NOT_PERMITTED', { extra: { permitted_org_number: PUBLIC_SANDBOX_ORG } })
  const reserved = (RESERVED_ERROR_ORGS as Record<string, ErrorCode>)[org]
  if (reserved) {
    where.simulated = true
    throw new AppError(reserved, {
      ...(reserved === 'VALIDATION_FAILED'
        ? { details: [{ field: 'org_number', message: `${org} is reserved to answer VALIDATION_FAILED` }] }
        : {}),
      extra: { reserved_org_number: org },
    })
  }
  const c = sandboxCompanyOf(org)
  if (c) return c
  if (where.writeSide)
    throw validationError([
      { field: 'org_number', message: 'is not a sandbox organisation; GET /api/v1/sandbox/fixtures lists them' },
    ])
  throw new AppError('COMPANY_NOT_FOUND', {
    context: { org_number: org },
    extra: { fixtures_url: '/api/v1/sandbox/fixtures' },
  })
}
