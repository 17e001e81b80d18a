import { expect, test } from 'bun:test'
import { pgliteAssets } from '../../src/store/embedded-assets.ts'

test('a restart is handed PGlite’s runtime without compiling initdb’s, which only a new database needs', async () => {
  const restart = await pgliteAssets(false)
  expect(restart.pgliteWasmModule).toBeInstanceOf(WebAssembly.Module)
  expect(restart.initdbWasmModule).toBeUndefined()
  const first = await pgliteAssets(true)
  expect(first.initdbWasmModule).toBeInstanceOf(WebAssembly.Module)
  expect(first.pgliteWasmModule).toBe(restart.pgliteWasmModule)
})
