// Imported as files so `bun build --compile` embeds PGlite's runtime in the single binary;
// PGlite would otherwise look for them beside its own module, which a binary does not have.
import pgliteWasm from '../../node_modules/@electric-sql/pglite/dist/pglite.wasm' with { type: 'file' }
import initdbWasm from '../../node_modules/@electric-sql/pglite/dist/initdb.wasm' with { type: 'file' }
import fsBundle from '../../node_modules/@electric-sql/pglite/dist/pglite.data' with { type: 'file' }

export interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module
  initdbWasmModule?: WebAssembly.Module
  fsBundle: Blob
}

const compile = (path: string) =>
  Bun.file(path)
    .arrayBuffer()
    .then((b) => WebAssembly.compile(b))
let pglite: Promise<WebAssembly.Module> | undefined
let initdb: Promise<WebAssembly.Module> | undefined

/**
 * PGlite's runtime, compiled once per process; initdb's only for a database still to be created,
 * since a restart on an existing data directory never runs it.
 */
export async function pgliteAssets(needsInitdb: boolean): Promise<PgliteAssets> {
  pglite ??= compile(pgliteWasm)
  if (needsInitdb) initdb ??= compile(initdbWasm)
  return {
    pgliteWasmModule: await pglite,
    ...(needsInitdb ? { initdbWasmModule: await initdb! } : {}),
    fsBundle: Bun.file(fsBundle),
  }
}
