/**
 * The system-user API's answers, in the shapes of the API documentation's examples, mapped to the
 * port's: requests (with and without access packages, `created` and a redirect), system users, and
 * the error code of a problem answer.
 */
import { expect, test } from 'bun:test'
import { tryParseJson } from '../../../src/lib/json.ts'
import { mapSystemUser, mapSystemUserRequest, problemCode } from '../../../src/upstream/digital-agency/map.ts'

const dir = `${import.meta.dir}/fixtures`
const read = async (name: string) => tryParseJson(await Bun.file(`${dir}/${name}`).text())

test('a new request: id, externalRef, system, organisation, packages, status and confirmUrl; an empty redirectUrl is null', async () => {
  expect(mapSystemUserRequest(await read('request-new.json'))).toEqual({
    id: 'bb4955d4-6c44-4716-841c-911205dadade',
    externalRef: '314112938',
    systemId: '991825827_dhana_test_01',
    partyOrgNo: '314112938',
    accessPackages: [{ urn: 'urn:altinn:accesspackage:merverdiavgift' }],
    status: 'New',
    confirmUrl:
      'https://am.ui.at22.altinn.cloud/accessmanagement/ui/systemuser/request?id=bb4955d4-6c44-4716-841c-911205dadade',
    redirectUrl: null,
    created: '2025-03-31T20:43:46.228209Z',
  })
})

test('a request with rights only and no created: no packages, created empty, the redirect kept', async () => {
  const r = mapSystemUserRequest(await read('request-bysystem-item.json'))
  expect(r).toMatchObject({
    status: 'Timedout',
    accessPackages: [],
    created: '',
    redirectUrl: 'https://smartcloudaltinn.azurewebsites.net/receipt',
  })
})

test('a request with a status the API does not have is not read', async () => {
  const body = { ...((await read('request-new.json')) as object), status: 'Pending' }
  expect(mapSystemUserRequest(body)).toBeNull()
})

test('a request without confirmUrl is not read', async () => {
  const { confirmUrl: _c, ...rest } = (await read('request-new.json')) as Record<string, unknown>
  expect(mapSystemUserRequest(rest)).toBeNull()
})

test('a system user: id, system, the reportee organisation, externalRef, isDeleted', async () => {
  expect(mapSystemUser(await read('system-user.json'))).toEqual({
    id: '704013ee-e82a-433e-83c5-a40e6e00d746',
    systemId: '991825827_smartcloud',
    reporteeOrgNo: '313775429',
    externalRef: '313775429',
    isDeleted: false,
  })
})

test('the code of a problem answer, and null for a body without one', async () => {
  expect(problemCode(await Bun.file(`${dir}/problem-pending.json`).text())).toBe('AUTH-00007')
  expect(problemCode('{"title":"Bad Request","status":400}')).toBeNull()
  expect(problemCode('<html>')).toBeNull()
})
