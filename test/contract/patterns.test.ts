/**
 * No pattern or format in our schemas may take super-linear time: each is run on 100 KB inputs
 * shaped to make a backtracking engine try every split (runs of one or two characters between a
 * matching prefix and a failing end). A quadratic pattern takes seconds there; a linear one well
 * under a millisecond, so the bound below is two orders of magnitude from either.
 */
import { describe, expect, test } from 'bun:test'
import { FormatRegistry, type TSchema } from '@sinclair/typebox'
import { Glob } from 'bun'
import { allOperations } from '../../src/operations/index.ts'
import { TOOLS } from '../../src/mcp/tools.ts'
import '../../src/schemas/formats.ts'
// The formats Elysia registers (date-time, uri, …) are evaluated by the same validators.
import 'elysia'

const SRC = new URL('../../src/', import.meta.url).pathname
const LENGTH = 100_000
const BOUND_MS = 100

function collect(value: unknown, patterns: Set<string>, formats: Set<string>, seen = new Set<unknown>()): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return
  seen.add(value)
  const v = value as Record<string, unknown>
  if (typeof v.pattern === 'string') patterns.add(v.pattern)
  if (typeof v.format === 'string') formats.add(v.format)
  for (const child of Object.values(v)) collect(child, patterns, formats, seen)
}

/** Every pattern literal written in the schema sources, so one kept in an unexported helper is found too. */
async function patternLiterals(): Promise<string[]> {
  const out: string[] = []
  for await (const file of new Glob('schemas/**/*.ts').scan(SRC)) {
    const text = await Bun.file(SRC + file).text()
    for (const m of text.matchAll(/pattern: '((?:[^'\\]|\\.)*)'/g))
      out.push(JSON.parse(`"${m[1]!.replaceAll('"', '\\"')}"`))
    for (const m of text.matchAll(/_PATTERN = '((?:[^'\\]|\\.)*)'/g))
      out.push(JSON.parse(`"${m[1]!.replaceAll('"', '\\"')}"`))
  }
  return out
}

async function allSchemas(): Promise<{ patterns: string[]; formats: string[] }> {
  const patterns = new Set<string>()
  const formats = new Set<string>()
  for await (const file of new Glob('schemas/**/*.ts').scan(SRC)) collect(await import(SRC + file), patterns, new Set())
  // Formats are checked where input is validated: request schemas and tool arguments. (Elysia's
  // `uri` format is itself super-linear; it appears only in response schemas, which are not
  // validated at run time, and this scan fails the day a request schema uses it.)
  for (const op of allOperations) collect(op.request, patterns, formats)
  for (const tool of TOOLS) collect(tool.input as TSchema, patterns, formats)
  return { patterns: [...patterns].sort(), formats: [...formats].sort() }
}

/** The literal characters a pattern mentions (escaped or plain), plus a few of every class. */
function alphabet(pattern: string): string[] {
  const chars = new Set(['a', 'Z', '0', ' ', '\t', '\n', '@', '.', '-', '_', ':', '/', 'é'])
  for (const m of pattern.matchAll(/\\(.)|([^\\^$()[\]{}|*+?])/g)) {
    const c = m[1] ?? m[2]!
    if (m[1] === undefined || !/[a-zA-Z]/.test(c)) chars.add(c)
  }
  return [...chars]
}

function* hostileInputs(pattern: string): Generator<string> {
  const chars = alphabet(pattern)
  const prefixes = ['', 'a', ...chars.map((c) => `a${c}`)]
  const runs = [...chars, ...chars.flatMap((a) => ['a', '0', '.'].map((b) => a + b))]
  for (const prefix of prefixes)
    for (const run of runs)
      for (const end of ['', '!', '@', '\n']) yield prefix + run.repeat(Math.ceil(LENGTH / run.length)) + end
}

function timed(check: (s: string) => unknown, input: string): number {
  const t = performance.now()
  check(input)
  return performance.now() - t
}

/**
 * The slowest input. A busy machine (a collection, another process) only ever adds time, so an
 * input over the bound is timed twice more and keeps its fastest run: a super-linear pattern is
 * slow every time.
 */
function slowest(check: (s: string) => unknown, inputs: Iterable<string>): { ms: number; input: string } {
  let worst = { ms: 0, input: '' }
  for (const input of inputs) {
    let ms = timed(check, input)
    if (ms > BOUND_MS) ms = Math.min(ms, timed(check, input), timed(check, input))
    if (ms > worst.ms) worst = { ms, input }
    if (ms > BOUND_MS) break
  }
  return worst
}

const found = await allSchemas()
const literals = await patternLiterals()

test('every pattern written in src/schemas is reached by the scan', () => {
  expect(literals.length).toBeGreaterThan(0)
  for (const p of literals) expect(found.patterns).toContain(p)
})

describe('every schema pattern runs in linear time on hostile input', () => {
  test.each(found.patterns)('%p', (pattern) => {
    const re = new RegExp(pattern)
    const { ms, input } = slowest((s) => re.test(s), hostileInputs(pattern))
    expect({ pattern, input: input.slice(0, 12), ms: ms < BOUND_MS ? 'fast' : ms }).toEqual({
      pattern,
      input: input.slice(0, 12),
      ms: 'fast',
    })
  })
})

test('the formats of our request schemas are registered, so the scan below checks each of them', () => {
  for (const f of found.formats) expect(FormatRegistry.Has(f)).toBe(true)
})

describe('every request format runs in linear time on hostile input', () => {
  test.each(found.formats)('%p', (format) => {
    const check = FormatRegistry.Get(format)!
    const { ms } = slowest(check, hostileInputs(''))
    expect(ms).toBeLessThan(BOUND_MS)
  })
})

test('the scan itself catches a quadratic pattern', () => {
  const quadratic = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
  const { ms } = slowest((s) => quadratic.test(s), [`a@${'.'.repeat(20_000)}@`])
  expect(ms).toBeGreaterThan(BOUND_MS)
})
