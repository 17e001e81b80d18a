/**
 * Runs the first ```js block of a published Markdown document (after the line holding `after`,
 * when given) as a module, so a test checks the very code we publish.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export async function importDocSnippet<T>(docPath: string, after?: string): Promise<T> {
  const whole = readFileSync(new URL(`../../${docPath}`, import.meta.url), 'utf8')
  const at = after === undefined ? 0 : whole.indexOf(after)
  if (at < 0) throw new Error(`${docPath} does not contain ${after}`)
  const m = /```js\n([\s\S]*?)```/.exec(whole.slice(at))
  if (!m) throw new Error(`${docPath} has no js block${after ? ` after ${after}` : ''}`)
  const dir = mkdtempSync(join(tmpdir(), 'plikt-snippet-'))
  try {
    const file = join(dir, 'snippet.mjs')
    writeFileSync(file, m[1]!)
    return (await import(file)) as T
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
