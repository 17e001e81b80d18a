/** A real MCP SDK client against a test app, and the tool-result envelope it returns. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { TestApp } from './app.ts'
import { freshIp } from './access.ts'

export async function connectMcp(app: TestApp, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'plikt-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), {
      requestInit: { headers: { ...freshIp(), ...headers } },
    }),
  )
  return client
}

export type ToolBody = {
  result: any
  justification: string
  metadata: any
  _meta: any
  execution_guarantee?: string
  outcome?: any
}
export const toolBody = (r: unknown) => (r as { structuredContent: ToolBody }).structuredContent
