/**
 * Where a webhook may be sent (spec: Events, URL hardening). Checked when a
 * subscription is created and again before every attempt, on the addresses the host resolves to
 * at that moment; the attempt then connects to the address checked here and to no other
 * (src/upstream/webhooks/live.ts never looks the name up again), so a DNS answer that changes
 * between the check and the connection cannot point the request inside.
 *
 * Refused: anything but https (http only for the loopback targets WEBHOOK_ALLOW_LOOPBACK admits),
 * userinfo, a fragment, the host suffixes the spec lists, cloud metadata hosts, and every address
 * that is not public unicast — private, loopback, link-local, shared (CGNAT), multicast, reserved,
 * documentation and benchmark ranges, in IPv4 and in IPv6. An IPv6 form that carries an IPv4
 * address (mapped, translated, compatible, NAT64, 6to4, ISATAP) is judged by that IPv4 address;
 * any other IPv6 address must be global unicast (2000::/3).
 */
import { isIP } from 'node:net'

/** The spec's suffixes; a name equal to one without the dot is refused too. */
export const BLOCKED_SUFFIXES = ['.local', '.internal', '.localhost', '.test', '.example', '.invalid'] as const

/** Cloud instance-metadata names (the addresses behind them are link-local, CGNAT or ULA, refused as such too). */
export const METADATA_HOSTS = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
])

/** The hosts WEBHOOK_ALLOW_LOOPBACK admits, and the address each is sent to. */
const LOOPBACK_TARGETS: Record<string, ResolvedAddress> = {
  '127.0.0.1': { address: '127.0.0.1', family: 4 },
  localhost: { address: '127.0.0.1', family: 4 },
}

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_LOOPBACK: http(s)://127.0.0.1:<port> and http(s)://localhost:<port> are admitted (development and tests only) */
  allowLoopback: boolean
}

/** A URL that passed the rules that need no DNS. `address` is set when no lookup is needed (an IP literal, or an admitted loopback host). */
export interface CheckedUrl {
  url: URL
  /** the host without brackets or trailing dots, lower-case */
  host: string
  address: ResolvedAddress | null
}

export type UrlCheck = { ok: true; target: CheckedUrl } | { ok: false; reason: string }

const refuse = (reason: string): UrlCheck => ({ ok: false, reason })

/** The URL rules: scheme, userinfo, fragment, host names and literal addresses. */
export function checkWebhookUrl(raw: string, policy: TargetPolicy): UrlCheck {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return refuse('is not an absolute URL')
  }
  if (url.username !== '' || url.password !== '') return refuse('must not contain userinfo (user:password@)')
  // `new URL('https://a/#')` has an empty hash: the raw text is what was asked for.
  if (raw.includes('#')) return refuse('must not contain a fragment (#…)')
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase()
  if (host === '') return refuse('has no host')
  const loopback = policy.allowLoopback ? LOOPBACK_TARGETS[host] : undefined
  if (loopback) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('must be an https URL')
    return { ok: true, target: { url, host, address: loopback } }
  }
  if (url.protocol !== 'https:')
    return refuse(
      policy.allowLoopback
        ? 'must be an https URL (http only for 127.0.0.1 and localhost, which WEBHOOK_ALLOW_LOOPBACK admits)'
        : 'must be an https URL',
    )
  const family = isIP(host)
  if (family !== 0) {
    const why = blockedAddress(host)
    return why
      ? refuse(`points at ${why} (${host})`)
      : { ok: true, target: { url, host, address: { address: host, family: family as 4 | 6 } } }
  }
  if (METADATA_HOSTS.has(host)) return refuse(`names a ${host === 'localhost' ? 'loopback' : 'cloud metadata'} host`)
  for (const suffix of BLOCKED_SUFFIXES) {
    if (host.endsWith(suffix) || host === suffix.slice(1))
      return refuse(`has a host under ${suffix}, which never names a public receiver`)
  }
  // A name that is all digits and dots, or a single label, is not a public DNS name.
  if (!host.includes('.')) return refuse('has a host that is not a fully qualified domain name')
  return { ok: true, target: { url, host, address: null } }
}

/** Why an address may not be connected to, or null for a public unicast address. */
export function blockedAddress(ip: string): string | null {
  const family = isIP(ip)
  if (family === 4) return blockedV4(v4Bytes(ip))
  if (family === 6) return blockedV6(v6Bytes(ip))
  return 'an address that is not IPv4 or IPv6'
}

/** Every address must be public: one private answer among public ones refuses the host (it could be the one connected to next time). */
export function blockedAmong(addresses: ResolvedAddress[]): string | null {
  if (addresses.length === 0) return 'no address'
  for (const a of addresses) {
    const why = blockedAddress(a.address)
    if (why) return `${why} (${a.address})`
  }
  return null
}

type V4Range = [prefix: [number, number, number, number], bits: number, what: string]

const V4_BLOCKED: V4Range[] = [
  [[0, 0, 0, 0], 8, 'the "this network" range'],
  [[10, 0, 0, 0], 8, 'a private range'],
  [[100, 64, 0, 0], 10, 'the shared (carrier-grade NAT) range'],
  [[127, 0, 0, 0], 8, 'a loopback address'],
  [[169, 254, 0, 0], 16, 'a link-local address (cloud metadata lives here)'],
  [[172, 16, 0, 0], 12, 'a private range'],
  [[192, 0, 0, 0], 24, 'the IETF protocol range'],
  [[192, 0, 2, 0], 24, 'a documentation range'],
  [[192, 88, 99, 0], 24, 'the 6to4 relay range'],
  [[192, 168, 0, 0], 16, 'a private range'],
  [[198, 18, 0, 0], 15, 'the benchmarking range'],
  [[198, 51, 100, 0], 24, 'a documentation range'],
  [[203, 0, 113, 0], 24, 'a documentation range'],
  [[224, 0, 0, 0], 4, 'a multicast range'],
  [[240, 0, 0, 0], 4, 'a reserved range'],
]

function inPrefix(bytes: Uint8Array, prefix: ArrayLike<number>, bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i)
    const mask = (0xff << (8 - take)) & 0xff
    if ((bytes[i / 8]! & mask) !== (prefix[i / 8]! & mask)) return false
  }
  return true
}

function blockedV4(b: Uint8Array): string | null {
  for (const [prefix, bits, what] of V4_BLOCKED) if (inPrefix(b, prefix, bits)) return what
  return null
}

function v4Bytes(ip: string): Uint8Array {
  return Uint8Array.from(ip.split('.').map(Number))
}

/** 16 bytes of a textual IPv6 address (with `::`, an embedded dotted IPv4 tail, or a zone). */
export function v6Bytes(ip: string): Uint8Array {
  const text = ip.split('%')[0]!
  const out = new Uint8Array(16)
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null]
  const groups = (part: string): number[] => {
    if (part === '') return []
    const words: number[] = []
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number]
        words.push((a << 8) | b, (c << 8) | d)
      } else words.push(parseInt(g, 16))
    }
    return words
  }
  const front = groups(head)
  const back = tail === null ? [] : groups(tail)
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back]
  words.forEach((w, i) => {
    out[2 * i] = w >> 8
    out[2 * i + 1] = w & 0xff
  })
  return out
}

type V6Range = [prefix: number[], bits: number, what: string]

/** Inside global unicast (2000::/3): the parts that are not a public host. */
const V6_BLOCKED: V6Range[] = [
  // 2001::/23 holds Teredo (2001::/32, its IPv4 addresses obfuscated), benchmarking, ORCHID and other protocol assignments
  [[0x20, 0x01, 0x00], 23, 'the IETF protocol assignments range (Teredo, benchmarking, ORCHID)'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'a documentation range'],
  [[0x3f, 0xff], 20, 'a documentation range'],
]

/**
 * An IPv6 address that carries an IPv4 address is judged by that IPv4 address; any other is
 * admitted only inside global unicast (2000::/3), less the ranges above. The forms: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, SIIT), the deprecated IPv4-compatible
 * (::/96), NAT64 (64:ff9b::/96; the local-use 64:ff9b:1::/48 is outside 2000::/3), 6to4
 * (2002::/16), and an ISATAP interface identifier (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) under any
 * prefix, which must pass both ways.
 */
function blockedV6(b: Uint8Array): string | null {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0)
  if (zeros(0, 16)) return 'the unspecified address'
  if (zeros(0, 15) && b[15] === 1) return 'a loopback address'
  const tail = b.subarray(12, 16)
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return mapped(tail, 'IPv4-mapped')
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return mapped(tail, 'IPv4-translated')
  // the deprecated IPv4-compatible ::a.b.c.d routes nowhere public, whatever it carries
  if (zeros(0, 12)) return 'a deprecated IPv4-compatible address'
  if (inPrefix(b, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return mapped(tail, 'NAT64')
  if (inPrefix(b, [0x20, 0x02], 16)) return mapped(b.subarray(2, 6), '6to4')
  if ((b[8] === 0x00 || b[8] === 0x02) && b[9] === 0x00 && b[10] === 0x5e && b[11] === 0xfe) {
    const why = mapped(tail, 'ISATAP')
    if (why) return why
  }
  if (!inPrefix(b, [0x20], 3)) {
    if (inPrefix(b, [0xfc], 7)) return 'a unique local (private) range'
    if (inPrefix(b, [0xfe, 0x80], 10)) return 'a link-local address'
    if (inPrefix(b, [0xff], 8)) return 'a multicast range'
    return 'an address outside global unicast (2000::/3)'
  }
  for (const [prefix, bits, what] of V6_BLOCKED) if (inPrefix(b, prefix, bits)) return what
  return null
}

function mapped(v4: Uint8Array, form: string): string | null {
  const why = blockedV4(v4)
  return why ? `${why}, written as ${form} IPv6` : null
}
