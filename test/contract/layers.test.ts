/**
 * The one-way arrows of ARCHITECTURE.md, checked on every import in src/: the surfaces (http,
 * mcp) call the pipeline and the handlers, which call the domain, which calls store and upstream.
 * A failure names the file and the import that breaks a rule.
 */
import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { dirname, join, relative } from 'node:path'

const SRC = new URL('../../src/', import.meta.url).pathname

interface Import {
  file: string
  /** the part of src/ imported (`domain`, `http`, …), or the package name */
  target: string
  typeOnly: boolean
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm

async function imports(): Promise<Import[]> {
  const out: Import[] = []
  for await (const file of new Glob('**/*.ts').scan(SRC)) {
    const text = await Bun.file(SRC + file).text()
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[3] ?? m[4]!
      const target = spec.startsWith('.') ? relative(SRC, join(dirname(SRC + file), spec)).split('/')[0]! : spec
      out.push({ file, target, typeOnly: m[2] !== undefined })
    }
  }
  return out
}

const all = await imports()
const layer = (file: string) => (file.includes('/') ? file.split('/')[0]! : file)
const violations = (from: string[], forbidden: (i: Import) => boolean) =>
  all
    .filter((i) => from.includes(layer(i.file)) && forbidden(i))
    .map((i) => `${i.file} → ${i.target}${i.typeOnly ? ' (type)' : ''}`)

test('the scan sees the imports of every layer', () => {
  for (const l of ['domain', 'store', 'upstream', 'pipeline', 'handlers', 'http', 'mcp'])
    expect(all.some((i) => layer(i.file) === l)).toBe(true)
})

test('mcp and http never import each other', () => {
  expect(violations(['mcp'], (i) => i.target === 'http')).toEqual([])
  expect(violations(['http'], (i) => i.target === 'mcp')).toEqual([])
})

test('the domain knows no surface, no pipeline and no database driver', () => {
  expect(
    violations(
      ['domain'],
      (i) =>
        ['http', 'mcp', 'pipeline', 'handlers', 'app.ts', 'elysia', 'postgres', '@electric-sql/pglite'].includes(
          i.target,
        ) || i.target.startsWith('@modelcontextprotocol'),
    ),
  ).toEqual([])
})

test('the pipeline and the handlers are surface-neutral', () => {
  expect(
    violations(
      ['pipeline', 'handlers'],
      (i) => ['http', 'mcp', 'app.ts', 'elysia'].includes(i.target) || i.target.startsWith('@modelcontextprotocol'),
    ),
  ).toEqual([])
})

test('the pipeline does not reach into the handlers', () => {
  expect(violations(['pipeline'], (i) => i.target === 'handlers')).toEqual([])
})

test('store and upstream never import domain values (types only)', () => {
  expect(violations(['store', 'upstream'], (i) => i.target === 'domain' && !i.typeOnly)).toEqual([])
})

test('only the http surface and the composition root use Elysia; only mcp uses the MCP SDK', () => {
  expect(
    violations(
      ['domain', 'store', 'upstream', 'pipeline', 'handlers', 'mcp', 'lib', 'errors', 'schemas'],
      (i) => i.target === 'elysia',
    ),
  ).toEqual([])
  expect(
    violations(['domain', 'store', 'upstream', 'pipeline', 'handlers', 'http', 'lib', 'errors', 'schemas'], (i) =>
      i.target.startsWith('@modelcontextprotocol'),
    ),
  ).toEqual([])
})
