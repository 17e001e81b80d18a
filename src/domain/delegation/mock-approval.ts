/**
 * The mock world's approval of a system-user request (the page at a mock request's confirmUrl):
 * the person choosing to approve or reject must be one the business register shows as able to
 * (company/approvers.ts); the decision is then made once, whatever races it.
 *
 * With a live digital agency the confirmUrl is the agency's own page, and there is nothing here.
 */
import { AppError } from '../../errors/app-error.ts'
import type { DigitalAgency } from '../../upstream/digital-agency/port.ts'
import { MockDigitalAgency, type MockRequest } from '../../upstream/digital-agency/mock.ts'
import { delegationApprovers, groundCode, type DelegationApprovers } from '../company/approvers.ts'
import type { CompanyReads } from '../sources.ts'

export interface ApprovalView {
  request: MockRequest
  company: DelegationApprovers
}

export type DecisionOutcome =
  | { kind: 'decided'; request: MockRequest }
  /** decided before, or timed out: nothing changed */
  | { kind: 'not_open'; view: ApprovalView }
  /** no one, or someone the register does not list, was chosen: nothing changed */
  | { kind: 'not_an_approver'; view: ApprovalView }

function mockAgency(agency: DigitalAgency): MockDigitalAgency {
  if (agency instanceof MockDigitalAgency) return agency
  throw new AppError('NOT_FOUND')
}

async function requestOf(agency: MockDigitalAgency, id: string): Promise<MockRequest> {
  const request = await agency.find(id)
  if (!request) throw new AppError('NOT_FOUND')
  return request
}

/** The request and who may decide it; NOT_FOUND for an unknown or malformed id. */
export async function approvalView(agency: DigitalAgency, sources: CompanyReads, id: string): Promise<ApprovalView> {
  const request = await requestOf(mockAgency(agency), id)
  return { request, company: await delegationApprovers(sources, request.partyOrgNo) }
}

export async function decideRequest(
  agency: DigitalAgency,
  sources: CompanyReads,
  id: string,
  approverName: string | null,
  decision: 'approve' | 'reject',
): Promise<DecisionOutcome> {
  const mock = mockAgency(agency)
  const request = await requestOf(mock, id)
  const company = await delegationApprovers(sources, request.partyOrgNo)
  if (request.status !== 'New') return { kind: 'not_open', view: { request, company } }
  const approver = company.approvers.find((a) => a.name === approverName)
  if (!approver) return { kind: 'not_an_approver', view: { request, company } }
  const result = await mock.decide(id, decision === 'approve' ? 'Accepted' : 'Rejected', {
    name: approver.name,
    basis: approver.grounds.map(groundCode).join(' '),
  })
  if (!result) throw new AppError('NOT_FOUND')
  return result.changed
    ? { kind: 'decided', request: result.request }
    : { kind: 'not_open', view: { request: result.request, company } }
}
