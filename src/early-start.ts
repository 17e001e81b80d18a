/**
 * Imported first by main.ts, so it runs before the rest of the program is evaluated: a service on
 * the embedded database starts compiling PGlite's WebAssembly (~150 ms, on the engine's compiler
 * thread) while the main thread evaluates the modules, instead of after them.
 */
import { pgliteAssets } from './store/embedded-assets.ts'

const command = process.argv[2]
if (!process.env.DATABASE_URL && (command === undefined || command === 'serve'))
  void pgliteAssets(false).catch(() => {})
