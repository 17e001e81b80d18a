/**
 * Who may approve a system-user request, read from the fixture register: the holders of the
 * managing roles and whoever the coded signing rule lets sign alone — never someone who signs only
 * jointly, a procuration holder, or an ordinary board member.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { delegationApprovers } from '../../../src/domain/company/approvers.ts'
import { startApp, type TestApp } from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const approvers = async (org: string) =>
  (await delegationApprovers(app.deps.reads, org)).approvers.map((a) => [
    a.name,
    a.grounds.map((g) => `${g.kind}:${g.code}`),
  ])

test('the general manager and the chair approve; the chair also signs alone under the rule', async () => {
  expect(await approvers('984661185')).toEqual([
    ['Ingrid Sætre', ['role:DAGL']],
    ['Henrik Aasheim', ['role:LEDE', 'signature:R0003']],
  ])
})

test('under a joint signing rule no board member approves alone: only the general manager and the chair', async () => {
  const a = await delegationApprovers(app.deps.reads, '923609016')
  expect(a.signature_rule).toEqual(['Styrets leder og ett styremedlem i fellesskap.'])
  expect(a.approvers.map((x) => x.name)).toEqual(['Magnus Thorsen', 'Elisabeth Brekke'])
})

test('procuration holders do not approve', async () => {
  expect((await approvers('912883604')).map(([name]) => name)).toEqual(['Terje Løvhaug', 'Gunn Løvhaug'])
})

test('the proprietor approves for a sole proprietorship the signing service does not cover', async () => {
  expect(await approvers('915241700')).toEqual([['Tora Vindseth', ['role:INNH']]])
})

test('partners who each sign alone approve', async () => {
  expect(await approvers('921173601')).toEqual([
    ['Kjetil Brattli', ['role:DTSO', 'signature:R0021']],
    ['Sindre Moen', ['role:DTSO', 'signature:R0021']],
  ])
})

test('the contact person approves for a branch of a foreign company', async () => {
  expect(await approvers('994029509')).toEqual([['Maja Holm', ['role:KNUF']]])
})

test('with the signing service down, the managing roles still approve', async () => {
  expect(await approvers('999888925')).toEqual([
    ['Fixture Daglig', ['role:DAGL']],
    ['Fixture Leder', ['role:LEDE']],
  ])
})

test('an organisation the register does not know has no approvers: COMPANY_NOT_FOUND', async () => {
  await expect(delegationApprovers(app.deps.reads, '999888941')).rejects.toMatchObject({ code: 'COMPANY_NOT_FOUND' })
})
