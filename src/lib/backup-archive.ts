/**
 * The backup file (`plikt backup`): a gzipped tar (ustar) an operator can list with `tar -tzf`,
 * holding what a restore needs to be the same service —
 *
 *   plikt-backup.json   the manifest: format, when, the server secret's fingerprint, the database's sha256
 *   server-secret       the secret receipts and fnr digests depend on (lib/server-secret.ts)
 *   database.tar.gz     the embedded database, one instant (PGlite's dumpDataDir)
 *
 * A file that does not start with the manifest is a backup from before the secret was carried: the
 * whole file is then the database, and the secret must come from elsewhere (commands.ts, restore).
 */
import { gunzipSync, gzipSync } from 'node:zlib'

export const MANIFEST = 'plikt-backup.json'
export const SECRET_ENTRY = 'server-secret'
export const DATABASE_ENTRY = 'database.tar.gz'

export interface BackupManifest {
  format: 'plikt-backup'
  version: 1
  created_at: string
  server_secret_fingerprint: string
  database_sha256: string
}

export type UnpackedBackup =
  | { kind: 'whole'; manifest: BackupManifest; secret: string; database: Uint8Array }
  | { kind: 'database-only'; database: Uint8Array }

const BLOCK = 512

function header(name: string, size: number, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK)
  const put = (text: string, at: number, len: number) => h.set(new TextEncoder().encode(text).subarray(0, len), at)
  put(name, 0, 100)
  put('0000600\0', 100, 8)
  put('0000000\0', 108, 8)
  put('0000000\0', 116, 8)
  put(`${size.toString(8).padStart(11, '0')}\0`, 124, 12)
  put(
    `${Math.floor(mtime / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    12,
  )
  put('        ', 148, 8)
  put('0', 156, 1)
  put('ustar\0', 257, 6)
  put('00', 263, 2)
  let sum = 0
  for (const b of h) sum += b
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8)
  return h
}

/** The backup file's bytes: manifest, secret and database as a gzipped tar. */
export function packBackup(manifest: BackupManifest, secret: string, database: Uint8Array, now: Date): Uint8Array {
  const entries: [string, Uint8Array][] = [
    [MANIFEST, new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`)],
    [SECRET_ENTRY, new TextEncoder().encode(`${secret}\n`)],
    [DATABASE_ENTRY, database],
  ]
  const parts: Uint8Array[] = []
  for (const [name, data] of entries) {
    parts.push(header(name, data.length, now.getTime()), data)
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK
    if (pad) parts.push(new Uint8Array(pad))
  }
  parts.push(new Uint8Array(BLOCK * 2))
  return gzipSync(Buffer.concat(parts))
}

/** The entries of an uncompressed tar, regular files only. */
function entriesOf(tar: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>()
  const text = (at: number, len: number) => new TextDecoder().decode(tar.subarray(at, at + len)).replace(/\0.*$/s, '')
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const name = text(at, 100)
    if (name === '') break
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8)
    if (!Number.isFinite(size) || size < 0 || at + BLOCK + size > tar.length)
      throw new Error(`a damaged entry (${name})`)
    if (text(at + 156, 1) === '0' || text(at + 156, 1) === '')
      out.set(name, tar.subarray(at + BLOCK, at + BLOCK + size))
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK
  }
  return out
}

/**
 * Reads a backup file: a whole backup (manifest first) or, from before the secret was carried, a
 * database only. Throws on a file that is neither gzip nor a tar.
 */
export function unpackBackup(file: Uint8Array): UnpackedBackup {
  const tar = gunzipSync(file)
  const first = new TextDecoder().decode(tar.subarray(0, 100)).replace(/\0.*$/s, '')
  if (first !== MANIFEST) return { kind: 'database-only', database: file }
  const entries = entriesOf(tar)
  const manifest = JSON.parse(new TextDecoder().decode(entries.get(MANIFEST)!)) as BackupManifest
  const secret = entries.get(SECRET_ENTRY)
  const database = entries.get(DATABASE_ENTRY)
  if (manifest.format !== 'plikt-backup' || !secret || !database)
    throw new Error(`the backup lacks ${!secret ? SECRET_ENTRY : DATABASE_ENTRY}`)
  return { kind: 'whole', manifest, secret: new TextDecoder().decode(secret).trim(), database }
}
