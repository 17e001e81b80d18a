/**
 * Webhook requests over node:http/https, connected to the checked IP address itself: `host` is
 * the address, while the Host header, TLS SNI and certificate check use the URL's name. No DNS
 * lookup happens here, so there is no second answer to rebind to; kept-alive sockets are pooled by
 * address, so a socket is only ever reused for the address it was opened to. Redirects are never
 * followed (a 3xx is returned as it is); the body is read up to a bound and the socket then dropped.
 */
import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import tls from 'node:tls'
import type { ResolvedAddress } from '../../domain/webhooks/target.ts'
import type { WebhookPost, WebhookResponse, WebhookTransport } from './port.ts'

export interface LiveTransportOptions {
  /** extra trusted CA certificates (PEM), beside the system's: a test receiver's own CA */
  ca?: string[]
  /** name → addresses; default the system resolver (getaddrinfo, so /etc/hosts applies) */
  resolve?: (host: string) => Promise<ResolvedAddress[]>
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|ALTNAME|UNABLE_TO_VERIFY|UNABLE_TO_GET/

async function systemResolve(host: string): Promise<ResolvedAddress[]> {
  const all = await lookup(host, { all: true, verbatim: true })
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

export function liveWebhookTransport(opts: LiveTransportOptions = {}): WebhookTransport {
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 })
  // An extra CA adds to the bundled roots rather than replacing them. (Read only then: loading the
  // bundled roots costs ~65 ms, on every start if it were a named import.)
  const httpsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: 64,
    ...(opts.ca ? { ca: [...tls.rootCertificates, ...opts.ca] } : {}),
  })
  return {
    resolve: opts.resolve ?? systemResolve,
    post: (p) => post(p, p.url.protocol === 'https:' ? httpsAgent : httpAgent),
  }
}

function post(p: WebhookPost, agent: http.Agent): Promise<WebhookResponse> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const secure = p.url.protocol === 'https:'
  const port = p.url.port ? Number(p.url.port) : secure ? 443 : 80
  const name = p.url.hostname.replace(/^\[|\]$/g, '')
  return new Promise<WebhookResponse>((resolve) => {
    let settled = false
    const finish = (r: WebhookResponse) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(r)
    }
    const options: https.RequestOptions = {
      host: p.address.address,
      family: p.address.family,
      port,
      path: `${p.url.pathname}${p.url.search}`,
      method: 'POST',
      agent,
      headers: { ...p.headers, host: p.url.host, 'content-length': String(Buffer.byteLength(p.body)) },
      // SNI carries a name, never an address literal
      ...(secure && isIP(name) === 0 ? { servername: name } : {}),
    }
    const req = (secure ? https : http).request(options, (res) => {
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > p.maxResponseBytes) {
          res.destroy()
          finish({ kind: 'response', status: res.statusCode ?? 0, bodyTooLarge: true, elapsedMs: elapsed() })
        }
      })
      res.on('end', () =>
        finish({ kind: 'response', status: res.statusCode ?? 0, bodyTooLarge: false, elapsedMs: elapsed() }),
      )
      res.on('error', (e) => finish(failure(e, elapsed())))
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish({
        kind: 'failed',
        errorClass: 'timeout',
        message: `no complete answer within ${p.timeoutMs} ms`,
        elapsedMs: elapsed(),
      })
    }, p.timeoutMs)
    req.on('error', (e) => finish(failure(e, elapsed())))
    req.end(p.body)
  })
}

function failure(e: Error & { code?: string }, elapsedMs: number): WebhookResponse {
  const text = `${e.code ?? ''} ${e.message}`
  return {
    kind: 'failed',
    errorClass: TLS_CODES.test(text) ? 'tls_error' : 'connection_failed',
    message: e.message.slice(0, 200),
    elapsedMs,
  }
}
