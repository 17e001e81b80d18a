/** An RFC 3161 authority over HTTP (`application/timestamp-query`), with a 10-second bound. */
import { randomBytes } from 'node:crypto'
import { readTimeStampResponse, timeStampRequest } from './map.ts'
import type { TimeStamp, TimestampAuthority } from './port.ts'

const TIMEOUT_MS = 10_000

export function liveTimestampAuthority(url: string): TimestampAuthority {
  return {
    url,
    async timestamp(sha256: Buffer): Promise<TimeStamp> {
      const nonce = randomBytes(8)
      nonce[0]! &= 0x7f
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
        body: timeStampRequest(sha256, nonce),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      if (!res.ok) throw new Error(`the time-stamping authority answered HTTP ${res.status}`)
      const reply = readTimeStampResponse(Buffer.from(await res.arrayBuffer()))
      if (!reply.hashedMessage.equals(sha256)) throw new Error('the token stamps another hash than the one asked for')
      if (reply.nonce !== BigInt(`0x${nonce.toString('hex')}`))
        throw new Error('the token does not carry the nonce asked with')
      return { token: reply.token, genTime: reply.genTime }
    },
  }
}
