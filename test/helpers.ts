/**
 * The one entry point for what tests share: the app under test, the pinned clock and people,
 * consumers and keys, approvals, the fixture governments, MCP clients, mail and webhook receivers,
 * and the validators that judge by the outside systems' contracts. The modules live in
 * `test/support/`; a test imports from here.
 */
export * from './support/app.ts'
export * from './support/pinned.ts'
export * from './support/access.ts'
export * from './support/approval.ts'
export * from './support/delegation.ts'
export * from './support/sandbox-read.ts'
export * from './support/sandbox-write.ts'
export * from './support/mcp-client.ts'
export * from './support/test-operations.ts'
export * from './support/government-fixtures.ts'
export * from './support/smtp-receiver.ts'
export * from './support/auth-server.ts'
export * from './support/doc-snippet.ts'
export * from './support/haproxy.ts'
export * from './support/rfc9162.ts'
export * from './support/service-process.ts'
export * from './support/tsa.ts'
export * from './support/webhook-receiver.ts'
export * from './support/webhooks.ts'
export * from './support/independent-calendar.ts'
export * from './support/rulebook-fixtures.ts'
export * from './support/contracts/graphql.ts'
export * from './support/contracts/json-schema.ts'
export * from './support/contracts/openapi-shapes.ts'
export * from './support/contracts/xsd.ts'
export * from './support/postgres-cluster.ts'
