// Imported as files so `bun build --compile` embeds PGlite's runtime in the single binary;
// PGlite would otherwise look for them beside its own module, which a binary does not have.
import pgliteWasm from '../../node_modules/@electric-sql/pglite/dist/pglite.wasm' with { type: 'file' }
import initdbWasm from '../../node_modules/@electric-sql/pglite/dist/initdb.wasm' with { type: 'file' }
import fsBundle from '../../node_modules/@electric-sql/pglite/dist/pglite.data' with { type: 'file' }

export interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module
  initdbWasmModule: WebAssembly.Module
  fsBundle: Blob
}

let cached: Promise<PgliteAssets> | undefined

export function pgliteAssets(): Promise<PgliteAssets> {
  cached ??= (async () => {
    const [pglite, initdb] = await Promise.all([
      Bun.file(pgliteWasm).arrayBuffer().then((b) => WebAssembly.compile(b)),
      Bun.file(initdbWasm).arrayBuffer().then((b) => WebAssembly.compile(b)),
    ])
    return { pgliteWasmModule: pglite, initdbWasmModule: initdb, fsBundle: Bun.file(fsBundle) }
  })()
  return cached
}
