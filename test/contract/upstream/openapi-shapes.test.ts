/**
 * The plumbing that turns a publisher's OpenAPI 3.0 document into a validator (openapi-shapes.ts):
 * `nullable` (OpenAPI 3.0, Schema Object) and `$ref`s within the document.
 */
import { describe, expect, test } from 'bun:test'
import { openApiComponent, openApiResponse } from '../../helpers.ts'

const doc = {
  openapi: '3.0.3',
  paths: {
    '/thing': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', example: 'a name' },
          note: { type: 'string', nullable: true },
          kind: { type: 'string', enum: ['A', 'B'], nullable: true },
          part: { $ref: '#/components/schemas/Part' },
          maybePart: { allOf: [{ $ref: '#/components/schemas/Part' }], nullable: true },
          count: { type: 'integer', format: 'int32' },
        },
      },
      Part: { type: 'object', properties: { size: { type: 'number' } } },
    },
  },
}

describe('nullable', () => {
  const thing = openApiComponent(doc, 'Thing')

  test('a nullable string admits null', () => {
    expect(thing.errors({ name: 'x', note: null })).toEqual([])
  })

  test('a string not marked nullable refuses null', () => {
    expect(thing.errors({ name: null })).not.toEqual([])
  })

  test('a nullable enum admits null and still refuses a value outside it', () => {
    expect(thing.errors({ name: 'x', kind: null })).toEqual([])
    expect(thing.errors({ name: 'x', kind: 'C' })).not.toEqual([])
  })

  test('a nullable reference admits null; a plain reference does not', () => {
    expect(thing.errors({ name: 'x', maybePart: null })).toEqual([])
    expect(thing.errors({ name: 'x', part: null })).not.toEqual([])
  })
})

describe('references and formats', () => {
  test("a documented response's schema resolves its references to the components", () => {
    const answer = openApiResponse(doc, '/thing', 'get', '200')
    expect(answer.errors([{ name: 'x', part: { size: 2 } }])).toEqual([])
    expect(answer.errors([{ name: 'x', part: { size: 'big' } }])).not.toEqual([])
  })

  test('an int32 beyond 2^31-1 fails', () => {
    expect(openApiComponent(doc, 'Thing').errors({ name: 'x', count: 2 ** 31 })).not.toEqual([])
  })

  test('a component the document does not have is an error, not an empty schema', () => {
    expect(() => openApiComponent(doc, 'Nothing')).toThrow('no component schema Nothing')
  })
})
