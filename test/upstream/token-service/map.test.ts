/** The token service's answers, in its documented shapes: a token response and its error bodies. */
import { expect, test } from 'bun:test'
import { mapTokenError, mapTokenResponse } from '../../../src/upstream/token-service/map.ts'
import { PINNED_NOW } from '../../helpers.ts'

const read = (name: string) => Bun.file(`${import.meta.dir}/fixtures/${name}`).text()
const now = new Date(PINNED_NOW)

test('a token response: the token, its scopes, and when it expires (expires_in from now)', async () => {
  const t = mapTokenResponse(await read('token.json'), now)
  expect(t?.scope).toBe('altinn:instances.read altinn:instances.write')
  expect(t?.access_token).toStartWith('eyJraWQi')
  expect(t?.expires_at.toISOString()).toBe('2026-03-14T09:39:59.000Z')
})

test('a response that is not a Bearer token with a lifetime is not read', async () => {
  const good = JSON.parse(await read('token.json'))
  expect(mapTokenResponse(JSON.stringify({ ...good, token_type: 'mac' }), now)).toBeNull()
  expect(mapTokenResponse(JSON.stringify({ ...good, expires_in: 0 }), now)).toBeNull()
  expect(mapTokenResponse(JSON.stringify({ ...good, access_token: '' }), now)).toBeNull()
  expect(mapTokenResponse('{"access_token":', now)).toBeNull()
})

test('an error body: the error and its description (error_uri ignored)', async () => {
  expect(mapTokenError(await read('error-invalid-grant.json'))).toEqual({
    error: 'invalid_grant',
    error_description: 'Invalid assertion. Client authentication failed. Invalid kid (MP-124)',
  })
  expect(mapTokenError(await read('error-customer-configuration.json'))?.error).toBe(
    'invalid_altinn_customer_configuration',
  )
})

test('a body without an error field is not an error body', () => {
  expect(mapTokenError('{"message":"Bad Request"}')).toBeNull()
  expect(mapTokenError('<html>502</html>')).toBeNull()
})
