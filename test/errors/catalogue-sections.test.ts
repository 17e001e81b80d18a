/**
 * The catalogue is assembled from one section file per area (src/errors/catalogue/): the sections
 * must add up to the enum, and every code either is used somewhere in src/ or says what it waits for.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { CATALOGUE, ERROR_CODES, type CatalogueEntry } from '../../src/errors/catalogue/index.ts'
import { explain } from '../../src/errors/explain.ts'
import { registryEntries } from '../../src/errors/registry.ts'
import { buildOpenApi } from '../../src/http/openapi.ts'
import { discoveryHandlers } from '../../src/http/discovery.ts'
import { Documents } from '../../src/pipeline/caching.ts'

const SRC = join(import.meta.dir, '../../src')
const DIR = join(SRC, 'errors/catalogue')
/** The files of the directory that are not sections. */
const NOT_SECTIONS = ['index.ts', 'entry.ts']

/** Every section file with the one thing it exports, its entries. */
const sections = await Promise.all(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && !NOT_SECTIONS.includes(f))
    .sort()
    .map(async (file) => {
      const exports = Object.values((await import(join(DIR, file))) as Record<string, unknown>)
      return { file, exports, entries: exports[0] as Record<string, CatalogueEntry> }
    }),
)

const entry = (code: string) => CATALOGUE[code as keyof typeof CATALOGUE] as CatalogueEntry

describe('catalogue sections', () => {
  test('each section file exports exactly its entries', () => {
    expect(sections.length).toBeGreaterThan(1)
    for (const s of sections) {
      expect(s.exports.length, s.file).toBe(1)
      expect(typeof s.entries, s.file).toBe('object')
      expect(Object.keys(s.entries).length, s.file).toBeGreaterThan(0)
    }
  })

  test('puts every code in exactly one section (a spread would keep the last of two silently)', () => {
    const where = new Map<string, string[]>()
    for (const s of sections)
      for (const code of Object.keys(s.entries)) where.set(code, [...(where.get(code) ?? []), s.file])
    expect(
      [...where].filter(([, files]) => files.length > 1).map(([code, files]) => `${code} in ${files.join(', ')}`),
    ).toEqual([])
  })

  test('add up to ERROR_CODES: the same codes, as many as the sections hold together', () => {
    const union = [...new Set(sections.flatMap((s) => Object.keys(s.entries)))].sort()
    expect(union).toEqual([...ERROR_CODES])
    expect(ERROR_CODES.length).toBe(sections.reduce((n, s) => n + Object.keys(s.entries).length, 0))
  })

  test('the catalogue serves each code the entry of its section', () => {
    for (const s of sections)
      for (const [code, e] of Object.entries(s.entries)) expect(entry(code) === e, code).toBe(true)
  })
})

/** All source text under src/ except the catalogue itself. */
function sourceText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .filter((path) => relative(DIR, path).startsWith('..'))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n')
}

describe('codes never thrown', () => {
  const text = sourceText(SRC)
  const used = (code: string) => text.includes(`'${code}'`) || text.includes(`"${code}"`)

  test('the scan sees the source: codes thrown today are found, the catalogue is not read', () => {
    for (const code of ['VALIDATION_FAILED', 'AUTH_MISSING', 'REGISTER_DOWN', 'UNKNOWN'])
      expect(used(code), code).toBe(true)
    expect(text).not.toContain('satisfies Record<string, CatalogueEntry>')
  })

  test('every code is used somewhere in src/ or says why it never is', () => {
    expect(ERROR_CODES.filter((code) => !used(code) && !entry(code).unused)).toEqual([])
  })

  test('no code that is used still says it is not', () => {
    expect(ERROR_CODES.filter((code) => used(code) && entry(code).unused)).toEqual([])
  })

  test('`unused` is bookkeeping: no public rendering of the catalogue shows it', async () => {
    const reasons = [...new Set(ERROR_CODES.map((code) => entry(code).unused).filter((a) => a !== undefined))]
    expect(reasons.length).toBeGreaterThan(0)
    const docs = await (
      discoveryHandlers.getErrorDocs as unknown as (ctx: { deps: { documents: Documents } }) => {
        document: { blob: Blob }
      }
    )({ deps: { documents: new Documents() } }).document.blob.text()
    const rendered = [
      JSON.stringify(registryEntries('https://plikt.test')),
      JSON.stringify(ERROR_CODES.map((code) => explain(code))),
      JSON.stringify(buildOpenApi('https://plikt.test')),
      docs,
    ]
    for (const out of rendered) {
      expect(out).not.toContain('"unused"')
      for (const a of reasons) expect(out).not.toContain(a)
    }
  })
})
