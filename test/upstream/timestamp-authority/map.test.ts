/** RFC 3161 DER: the request we send, as OpenSSL reads it; a refusal in the reply is an error. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'bun:test'
import {
  MalformedTimestamp,
  readTimeStampResponse,
  timeStampRequest,
} from '../../../src/upstream/timestamp-authority/map.ts'
import { hasOpenssl } from '../../helpers.ts'

test.skipIf(!hasOpenssl)(
  'a request is a v1 TimeStampReq over SHA-256 with the nonce, asking for the certificate',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'plikt-tsq-'))
    try {
      const hash = Buffer.alloc(32, 0xab)
      writeFileSync(join(dir, 'q.tsq'), timeStampRequest(hash, Buffer.from([0x01, 0x02, 0x03, 0x04])))
      const out = Bun.spawnSync(['openssl', 'ts', '-query', '-in', join(dir, 'q.tsq'), '-text'])
      const text = out.stdout.toString()
      expect(out.exitCode).toBe(0)
      expect(text).toContain('Version: 1')
      expect(text).toContain('Hash Algorithm: sha256')
      expect(text.replace(/\s+/g, ' ')).toContain('ab ab ab ab')
      expect(text).toContain('Nonce: 0x01020304')
      expect(text).toContain('Certificate required: yes')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
)

test('a reply whose status is a refusal is an error, not a token', () => {
  // TimeStampResp { status { PKIStatus 2 (rejection) } }
  expect(() => readTimeStampResponse(Buffer.from([0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02]))).toThrow(
    MalformedTimestamp,
  )
})

test('a truncated reply is an error', () => {
  expect(() => readTimeStampResponse(Buffer.from([0x30, 0x10, 0x30]))).toThrow(MalformedTimestamp)
})
