import { expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { hasBoundedStrings, nestedDeeperThan, overlongFields } from '../../src/schemas/bounds.ts'

const S = (maxLength: number) => Type.String({ maxLength })

test('a string within its bound passes', () => {
  expect(overlongFields(Type.Object({ a: S(3) }), { a: 'abc' }, 'body')).toEqual([])
})

test('a string over its bound is named with its path and the bound', () => {
  expect(overlongFields(Type.Object({ a: Type.Object({ b: S(3) }) }), { a: { b: 'abcd' } }, 'body')).toEqual([
    { field: 'a.b', message: 'Expected string length less or equal to 3' },
  ])
})

test('array items are checked by index', () => {
  expect(
    overlongFields(Type.Object({ list: Type.Array(S(2)) }), { list: ['ok', 'long'] }, 'body').map((i) => i.field),
  ).toEqual(['list.1'])
})

test('a whole input that is a string is named by its location', () => {
  expect(overlongFields(S(1), 'ab', 'arguments').map((i) => i.field)).toEqual(['arguments'])
})

test('in a union, a string is over-long only when every string alternative refuses it', () => {
  const u = Type.Object({ v: Type.Union([S(2), S(5), Type.Number()]) })
  expect(overlongFields(u, { v: 'abcd' }, 'body')).toEqual([])
  expect(overlongFields(u, { v: 'abcdef' }, 'body').map((i) => i.field)).toEqual(['v'])
  expect(overlongFields(u, { v: 3 }, 'body')).toEqual([])
})

test('values of the wrong type and unknown properties are left to the validator', () => {
  expect(overlongFields(Type.Object({ a: S(1) }), { a: 42, other: 'x'.repeat(100) }, 'body')).toEqual([])
})

test('only schemas with a bounded string need the walk', () => {
  expect(hasBoundedStrings(Type.Object({ year: Type.Integer() }))).toBe(false)
  expect(hasBoundedStrings(Type.Object({ q: Type.Optional(Type.Array(S(9))) }))).toBe(true)
})

test('nesting is measured in object and array levels, without recursion', () => {
  expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false)
  expect(nestedDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true)
  expect(nestedDeeperThan(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)), 32)).toBe(true)
  expect(nestedDeeperThan('flat', 0)).toBe(false)
})
