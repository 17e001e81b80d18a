import { expect, test } from 'bun:test'
import {
  ANONYMOUS_SANDBOX_NAMESPACE,
  consumerSandboxNamespace,
  syntheticNamespace,
} from '../../../src/domain/sandbox/namespaces.ts'

const CONSUMER = '0b6f6a52-4a51-4d0e-9c39-1d2a3b4c5d6e'

test('every sandbox namespace begins with sandbox', () => {
  for (const ns of [ANONYMOUS_SANDBOX_NAMESPACE, syntheticNamespace('agent-1'), consumerSandboxNamespace(CONSUMER)])
    expect(ns.startsWith('sandbox')).toBe(true)
})

test('a real key’s sandbox namespace is not its consumer’s production namespace', () => {
  expect(consumerSandboxNamespace(CONSUMER)).not.toBe(`consumer:${CONSUMER}`)
})

test('no suffix of the synthetic bearer names the anonymous or a consumer’s namespace', () => {
  // A suffix is ^[A-Za-z0-9_-]{1,64}$: it has no '/', which the other two namespaces contain.
  expect(syntheticNamespace('anonymous')).not.toBe(ANONYMOUS_SANDBOX_NAMESPACE)
  expect(ANONYMOUS_SANDBOX_NAMESPACE.includes('/') && consumerSandboxNamespace(CONSUMER).includes('/')).toBe(true)
})
