/** Documents about the service: the OpenAPI document, the API reference, the error pages. */
import { Type } from '@sinclair/typebox'
import { op, type Operation } from './define.ts'

export const discoveryOperations = [
  op({
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    category: 'discovery',
    format: 'json',
    tag: 'Discovery',
    summary: 'This OpenAPI 3.1 document',
    response: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1 document' }),
  }),
  op({
    id: 'getApiDocs',
    method: 'GET',
    path: '/docs',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Interactive API reference (works offline)',
    response: null,
  }),
  op({
    id: 'getErrorDocs',
    method: 'GET',
    path: '/docs/errors',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'Every error code explained; the target of each `docs_url`',
    response: null,
  }),
] as const satisfies readonly Operation[]
