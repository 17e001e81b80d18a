/**
 * A real SMTP server for tests: plain SMTP on 127.0.0.1 and an ephemeral port, no TLS, no
 * authentication, every message kept raw. Point the app at it with SMTP_URL=receiver.url.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  /** envelope sender (MAIL FROM) */
  from: string
  /** envelope recipients (RCPT TO) */
  to: string[]
  /** the message as it came over the wire: headers, blank line, body */
  raw: string
}

export interface SmtpReceiver {
  port: number
  /** smtp://127.0.0.1:<port>, for SMTP_URL */
  url: string
  messages: ReceivedMail[]
  /** The first message (received already, or within timeoutMs) that matches. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: true,
    // Not advertised, so the client (nodemailer) speaks plain SMTP without being told to.
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('error', callback)
      stream.on('end', () => {
        const env = session.envelope
        messages.push({
          from: env.mailFrom ? env.mailFrom.address : '',
          to: env.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        for (const wake of waiters) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match)
          if (!found) return false
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`))
        }, timeoutMs)
        if (!check()) waiters.add(check)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * The text of a single-part message: the body after the headers, undone from its
 * Content-Transfer-Encoding (quoted-printable soft line breaks and =XX escapes, or base64).
 */
export function mailText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/)
  const head = split < 0 ? raw : raw.slice(0, split)
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '')
  const encoding = /^content-transfer-encoding:\s*([\w-]+)/im
    .exec(head.replace(/\r?\n[ \t]+/g, ' '))?.[1]
    ?.toLowerCase()
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  return body
}
