import { describe, expect, test } from 'bun:test'
import { mcpOffer } from '../../../src/domain/discovery/mcp-offer.ts'
import { llmsFullTxt, llmsTxt } from '../../../src/domain/discovery/llms.ts'
import { ERROR_CODES } from '../../../src/errors/catalogue/index.ts'
import { allOperations, openApiPath } from '../../../src/operations/index.ts'

const BASE = 'https://plikt.example'

describe('llms.txt', () => {
  test('follows llmstxt.org: an H1, a summary blockquote, then H2 sections of links', () => {
    const lines = llmsTxt(BASE).split('\n')
    expect(lines[0]).toBe('# Plikt')
    expect(lines[2]!.startsWith('> ')).toBe(true)
    const sections = lines.filter((l) => l.startsWith('## '))
    expect(sections).toEqual([
      '## Start here',
      '## Get a key',
      '## MCP resources and prompts',
      '## Workflows',
      '## Optional',
    ])
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1)
  })

  test('tells an agent how to get a key: the sign-up call, the sign-in page and the operator’s mint', () => {
    const text = llmsTxt(BASE)
    expect(text).toContain(`POST ${BASE}/api/v1/account/signup`)
    expect(text).toContain(`${BASE}/login`)
    expect(text).toContain(`POST ${BASE}/api/v1/admin/keys`)
  })

  test('names every MCP resource, resource template and prompt', () => {
    const text = llmsTxt(BASE)
    for (const r of mcpOffer().resources) expect(text).toContain(`- [${r.uri}](${r.uri}): MCP resource`)
    for (const t of mcpOffer().resource_templates) expect(text).toContain(`- [${t.uri_template}](${t.uri_template})`)
    for (const p of mcpOffer().prompts) expect(text).toContain(`- [Prompt ${p.name}](${BASE}/recipes#${p.name})`)
  })

  test('links the two-minute sandbox tour first', () => {
    expect(llmsTxt(BASE)).toContain(`${BASE}/recipes#sandbox-tour`)
  })
})

describe('llms-full.txt', () => {
  test('inlines every operation but the pages, and every error code', () => {
    const text = llmsFullTxt(BASE)
    for (const o of allOperations.filter((x) => x.format !== 'html'))
      expect(text).toContain(`\`${o.method} ${openApiPath(o.path)}\` (${o.id};`)
    for (const code of ERROR_CODES) expect(text).toContain(`- \`${code}\` (HTTP `)
  })

  test('begins with llms.txt itself', () => {
    expect(llmsFullTxt(BASE).startsWith(llmsTxt(BASE).trimEnd())).toBe(true)
  })
})
