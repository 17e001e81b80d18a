/**
 * The registry is assembled from one file per area (src/operations/): each area file exports its
 * operations, index.ts joins all of them, and nothing is listed twice.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { allOperations, operations, type Operation } from '../../src/operations/index.ts'

const DIR = join(import.meta.dir, '../../src/operations')
/** The files of the directory that are not areas. */
const NOT_AREAS = ['index.ts', 'define.ts']

/** Every area file with the operations it exports (`<area>Operations`). */
const areas = await Promise.all(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && !NOT_AREAS.includes(f))
    .sort()
    .map(async (file) => {
      const name = `${file.slice(0, -'.ts'.length)}Operations`
      const mod = (await import(join(DIR, file))) as Record<string, unknown>
      return { file, name, ops: mod[name] as readonly Operation[] | undefined }
    }),
)

describe('registry areas', () => {
  test('each area file exports its operations as <area>Operations', () => {
    expect(areas.length).toBeGreaterThan(1)
    for (const a of areas) {
      expect(Array.isArray(a.ops), `${a.file} exports ${a.name}`).toBe(true)
      expect(a.ops!.length, a.file).toBeGreaterThan(0)
    }
  })

  test('index.ts joins every area, each once', () => {
    const index = readFileSync(join(DIR, 'index.ts'), 'utf8')
    for (const a of areas) expect(index.split(`...${a.name},`).length - 1, a.name).toBe(1)
  })

  test('the registry is exactly the areas together: every entry in one area, none lost', () => {
    const home = new Map<Operation, string[]>()
    for (const a of areas) for (const o of a.ops!) home.set(o, [...(home.get(o) ?? []), a.file])
    expect(
      [...home].filter(([, files]) => files.length > 1).map(([o, files]) => `${o.id} in ${files.join(', ')}`),
    ).toEqual([])
    expect(allOperations.length).toBe(home.size)
    for (const o of allOperations) expect(home.has(o), o.id).toBe(true)
  })

  test('allOperations is the typed registry itself', () => {
    expect(allOperations).toBe(operations)
  })

  test('operation ids are unique', () => {
    expect(new Set(allOperations.map((o) => o.id)).size).toBe(allOperations.length)
  })

  test('each method and path is served once', () => {
    const routes = allOperations.map((o) => `${o.method} ${o.path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })
})
