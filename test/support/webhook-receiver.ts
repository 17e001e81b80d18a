/**
 * A real webhook receiver for tests: node:http, or node:https with a certificate made for it. It
 * checks every request's X-Service-Signature with its own implementation of the scheme (node:crypto
 * only, written from the spec, not from src/) and records what arrived. What it answers is up to
 * the test: a status, a redirect, an oversized body, a delay.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Arrival {
  path: string
  headers: Record<string, string>
  body: string
  /** parsed body */
  json: any
  /** the signature checked out under the subscription's secret, within 300 s of `now` */
  verified: boolean
}

export interface ReceiverAnswer {
  status?: number
  body?: string | Buffer
  headers?: Record<string, string>
  /** wait this long before answering */
  delayMs?: number
  /** answer once this settles (a receiver that takes as long as the test wants) */
  hold?: Promise<unknown>
}

export interface Receiver {
  url: string
  port: number
  arrivals: Arrival[]
  /** the secret per subscription id, set by the test once it has one */
  secrets: Map<string, string>
  /** how the next requests are answered (default 200) */
  answer: (a: Arrival) => ReceiverAnswer
  /** the receiver's idea of now, Unix seconds (the tests pin the sender's clock) */
  now: () => number
  stop(): Promise<void>
}

/** The scheme as the spec states it: HMAC-SHA-256(secret, "<t>.<raw body>"), hex, constant-time compare, 300 s tolerance. */
export function independentVerify(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
): boolean {
  if (!header) return false
  const fields = new Map<string, string[]>()
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) return false
    const k = part.slice(0, eq)
    fields.set(k, [...(fields.get(k) ?? []), part.slice(eq + 1)])
  }
  const t = fields.get('t')?.[0]
  if (!t || !/^[0-9]+$/.test(t) || Math.abs(nowSeconds - Number(t)) > 300) return false
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
  mac.update(Buffer.from(`${t}.`, 'utf8'))
  mac.update(Buffer.from(rawBody, 'utf8'))
  const expected = mac.digest()
  return (fields.get('v1') ?? []).some(
    (v) => /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(Buffer.from(v, 'hex'), expected),
  )
}

export async function startReceiver(
  opts: { host?: string; tls?: { key: string; cert: string }; now?: () => number } = {},
): Promise<Receiver> {
  const host = opts.host ?? '127.0.0.1'
  const r: Omit<Receiver, 'url' | 'port' | 'stop'> = {
    arrivals: [],
    secrets: new Map(),
    answer: () => ({ status: 200, body: 'ok' }),
    now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
  }
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: any = null
      try {
        json = JSON.parse(body)
      } catch {}
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      )
      const secret = json?.subscription_id ? r.secrets.get(json.subscription_id) : undefined
      const arrival: Arrival = {
        path: req.url ?? '',
        headers,
        body,
        json,
        verified: secret ? independentVerify(body, headers['x-service-signature'], secret, r.now()) : false,
      }
      r.arrivals.push(arrival)
      const a = r.answer(arrival)
      const send = () => {
        res.writeHead(a.status ?? 200, a.headers ?? {})
        res.end(a.body ?? '')
      }
      if (a.hold) void a.hold.then(send, send)
      else if (a.delayMs) setTimeout(send, a.delayMs)
      else send()
    })
  }
  const server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
    : http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return Object.assign(r, {
    port,
    url: `${opts.tls ? 'https' : 'http'}://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  })
}

/** A self-signed certificate for these names (made with openssl, in a temporary directory). */
export function selfSignedCertificate(names: string[]): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'plikt-cert-'))
  try {
    const san = names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',')
    const out = Bun.spawnSync([
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${san}`,
    ])
    if (out.exitCode !== 0) throw new Error(`openssl: ${out.stderr.toString()}`)
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
