/**
 * The portal's answers (Altinn 3 instance, process state, storage query page, feedback status,
 * exchanged token) in the shapes the app and platform APIs document, mapped to what the submitter
 * needs.
 */
import { expect, test } from 'bun:test'
import {
  mapExchangedToken,
  mapFeedbackStatus,
  mapInstance,
  mapInstancePage,
  mapProcess,
} from '../../../src/upstream/filing-portal/map.ts'
import { tryParseJson } from '../../../src/lib/json.ts'

const read = async (name: string) => tryParseJson(await Bun.file(`${import.meta.dir}/fixtures/${name}`).text())

test('a new instance: id split into party and guid, owner, the pre-made envelope, at the data task, no tag', async () => {
  const i = mapInstance(await read('instance-created.json'))
  expect(i).toMatchObject({
    id: '50001337/bffd2c17-9d93-49f4-b504-3d0ece2402c7',
    partyId: '50001337',
    guid: 'bffd2c17-9d93-49f4-b504-3d0ece2402c7',
    organisationNumber: '984661185',
    dataValues: {},
    data: [
      {
        id: '28abba46-dea8-4ab7-ba90-433abba906df',
        dataType: 'no.skatteetaten.fastsetting.avgift.mva.mvameldinginnsending.v1.0',
      },
    ],
    process: { ended: null, task: { elementId: 'Task_1', altinnTaskType: 'data', name: 'Utfylling' } },
    isSoftDeleted: false,
  })
  expect(i?.raw).toEqual((await read('instance-created.json')) as Record<string, unknown>)
})

test('the process at the feedback task, and after it ended', async () => {
  expect(mapProcess(await read('process-feedback.json'))).toEqual({
    ended: null,
    task: { elementId: 'Task_3', altinnTaskType: 'feedback', name: 'Tilbakemelding' },
  })
  expect(mapProcess(await read('process-ended.json'))).toEqual({ ended: '2026-03-14T09:31:12.0091234Z', task: null })
})

test('a process with neither a task nor an end is not read', () => {
  expect(mapProcess({ started: '2026-03-14T09:30:01Z', currentTask: null, ended: null })).toBeNull()
})

test('a storage query page: its instances with their tags, and the continuation link', async () => {
  const page = mapInstancePage(await read('instances-page.json'))
  expect(page?.instances).toHaveLength(1)
  expect(page?.instances[0]?.dataValues).toEqual({ pliktFiling: '0123456789abcdef0123456789abcdef' })
  expect(page?.next).toStartWith('https://platform.altinn.no/storage/api/v1/instances?')
})

test('an instance id that is not party/guid, or data elements without a type, are not read', async () => {
  const good = (await read('instance-created.json')) as Record<string, unknown>
  expect(mapInstance({ ...good, id: 'bffd2c17-9d93-49f4-b504-3d0ece2402c7' })).toBeNull()
  expect(mapInstance({ ...good, id: '50001337/not-a-guid' })).toBeNull()
  expect(mapInstance({ ...good, data: [{ id: 'x' }] })).toBeNull()
})

test('feedback status', () => {
  expect(mapFeedbackStatus({ isFeedbackProvided: true })).toEqual({ isFeedbackProvided: true })
  expect(mapFeedbackStatus({ isFeedbackProvided: 'yes' })).toBeNull()
})

test('the exchanged token, bare or as a JSON string; anything else is not one', () => {
  expect(mapExchangedToken('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln\n')).toBe(
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
  )
  expect(mapExchangedToken('"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"')).toBe(
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
  )
  expect(mapExchangedToken('<html>Unauthorized</html>')).toBeNull()
})
