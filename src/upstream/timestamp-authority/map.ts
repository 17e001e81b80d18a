/**
 * RFC 3161 in DER, only as far as a client needs: encoding a TimeStampReq for a SHA-256 hash, and
 * reading a TimeStampResp — its status, the token, and from the token's TSTInfo the hash, the
 * nonce and genTime, which are checked against the request. The token's signature is the
 * authority's to make and a verifier's to check (openssl ts -verify); it is kept byte for byte.
 */
export class MalformedTimestamp extends Error {
  override name = 'MalformedTimestamp'
}

const SHA256_OID = [2, 16, 840, 1, 101, 3, 4, 2, 1]
const SIGNED_DATA_OID = '1.2.840.113549.1.7.2'
const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4'

// -- encoding ---------------------------------------------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

const tlv = (tag: number, value: Buffer) => Buffer.concat([Buffer.from([tag]), length(value.length), value])
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items))

function oid(parts: number[]): Buffer {
  const out = [40 * parts[0]! + parts[1]!]
  for (const p of parts.slice(2)) {
    const groups: number[] = []
    for (let v = p; ; v = Math.floor(v / 128)) {
      groups.unshift(v & 0x7f)
      if (v < 128) break
    }
    out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)))
  }
  return tlv(0x06, Buffer.from(out))
}

/** A positive INTEGER from big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  let b = bytes
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1)
  return tlv(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b)
}

/** TimeStampReq { version 1, messageImprint (SHA-256), nonce, certReq TRUE }. */
export function timeStampRequest(sha256: Buffer, nonce: Buffer): Buffer {
  if (sha256.length !== 32) throw new Error('a SHA-256 hash is 32 bytes')
  const algorithm = seq(oid(SHA256_OID), Buffer.from([0x05, 0x00]))
  return seq(
    integer(Buffer.from([1])),
    seq(algorithm, tlv(0x04, sha256)),
    integer(nonce),
    Buffer.from([0x01, 0x01, 0xff]),
  )
}

// -- decoding ---------------------------------------------------------------------------------------

interface Node {
  tag: number
  /** the whole element, header included */
  raw: Buffer
  value: Buffer
}

function read(buf: Buffer, at = 0): Node & { end: number } {
  const tag = buf[at]
  let len = buf[at + 1]
  if (tag === undefined || len === undefined) throw new MalformedTimestamp('truncated DER')
  let offset = at + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4) throw new MalformedTimestamp('unsupported DER length')
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + buf[offset + i]!
    offset += n
  }
  const end = offset + len
  if (end > buf.length) throw new MalformedTimestamp('truncated DER')
  return { tag, raw: buf.subarray(at, end), value: buf.subarray(offset, end), end }
}

function children(node: Node): Node[] {
  const out: Node[] = []
  for (let at = 0; at < node.value.length; ) {
    const child = read(node.value, at)
    out.push(child)
    at = child.end
  }
  return out
}

function oidText(node: Node): string {
  if (node.tag !== 0x06) throw new MalformedTimestamp('expected an OBJECT IDENTIFIER')
  const b = node.value
  const parts = [Math.floor(b[0]! / 40), b[0]! % 40]
  let v = 0
  for (const byte of b.subarray(1)) {
    v = v * 128 + (byte & 0x7f)
    if (!(byte & 0x80)) {
      parts.push(v)
      v = 0
    }
  }
  return parts.join('.')
}

function expect(node: Node | undefined, tag: number, what: string): Node {
  if (!node || node.tag !== tag) throw new MalformedTimestamp(`expected ${what}`)
  return node
}

function unsigned(node: Node): bigint {
  return BigInt(`0x${node.value.toString('hex') || '0'}`)
}

/** `YYYYMMDDHHMMSS[.f…]Z` */
function generalizedTime(node: Node): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(
    expect(node, 0x18, 'genTime').value.toString('latin1'),
  )
  if (!m) throw new MalformedTimestamp('genTime is not a UTC GeneralizedTime')
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms))
}

export interface TimeStampReply {
  token: Buffer
  hashedMessage: Buffer
  nonce: bigint | null
  genTime: Date
}

/** Reads a TimeStampResp; throws unless the status is granted (0) or grantedWithMods (1) with a token. */
export function readTimeStampResponse(der: Buffer): TimeStampReply {
  const resp = children(expect(read(der), 0x30, 'TimeStampResp'))
  const status = children(expect(resp[0], 0x30, 'PKIStatusInfo'))
  const code = Number(unsigned(expect(status[0], 0x02, 'PKIStatus')))
  if (code !== 0 && code !== 1) throw new MalformedTimestamp(`the authority refused: PKIStatus ${code}`)
  const token = expect(resp[1], 0x30, 'TimeStampToken')
  const contentInfo = children(token)
  if (oidText(contentInfo[0]!) !== SIGNED_DATA_OID) throw new MalformedTimestamp('the token is not SignedData')
  const signedData = children(expect(children(expect(contentInfo[1], 0xa0, '[0] content'))[0], 0x30, 'SignedData'))
  const encap = children(expect(signedData[2], 0x30, 'EncapsulatedContentInfo'))
  if (oidText(encap[0]!) !== TST_INFO_OID) throw new MalformedTimestamp('the token does not hold a TSTInfo')
  const octets = expect(children(expect(encap[1], 0xa0, '[0] eContent'))[0], 0x04, 'eContent OCTET STRING')
  const tst = children(expect(read(octets.value), 0x30, 'TSTInfo'))
  const imprint = children(expect(tst[2], 0x30, 'MessageImprint'))
  const hashedMessage = expect(imprint[1], 0x04, 'hashedMessage').value
  const genTime = generalizedTime(tst[4]!)
  const nonce = tst.slice(5).find((n) => n.tag === 0x02)
  return {
    token: Buffer.from(token.raw),
    hashedMessage: Buffer.from(hashedMessage),
    nonce: nonce ? unsigned(nonce) : null,
    genTime,
  }
}
