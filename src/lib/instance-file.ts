/**
 * DATA_DIR/instance.json: where the instance serving an embedded DATA_DIR listens, written once it
 * listens and removed when it stops. `plikt backup` reads it to find that instance from DATA_DIR
 * alone (no PORT or BASE_URL needed); it is believed only while the directory's lock is held.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { writeFileExclusively } from './exclusive-file.ts'

export interface InstanceFile {
  /** an address this machine reaches the instance at (a wildcard bind is written as loopback) */
  url: string
  pid: number
  /** lib/server-secret.ts secretFingerprint of the secret it serves with */
  server_secret_fingerprint: string
}

const path = (dataDir: string) => join(resolve(dataDir), 'instance.json')

/** The local address of a server bound to `host`:`port`. */
export function localUrl(host: string, port: number): string {
  const h =
    host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host
  return `http://${h}:${port}`
}

export function writeInstanceFile(dataDir: string, info: InstanceFile): void {
  writeFileExclusively(path(dataDir), new TextEncoder().encode(`${JSON.stringify(info)}\n`))
}

export function readInstanceFile(dataDir: string): InstanceFile | null {
  if (!existsSync(path(dataDir))) return null
  try {
    const info = JSON.parse(readFileSync(path(dataDir), 'utf8')) as InstanceFile
    return typeof info.url === 'string' ? info : null
  } catch {
    return null
  }
}

export function removeInstanceFile(dataDir: string): void {
  rmSync(path(dataDir), { force: true })
}
