/** The URL and address rules webhooks are held to (spec: Events, URL hardening). Pure: no DNS here. */
import { describe, expect, test } from 'bun:test'
import { BLOCKED_SUFFIXES, blockedAddress, blockedAmong, checkWebhookUrl } from '../../../src/domain/webhooks/target.ts'

const strict = { allowLoopback: false }
const dev = { allowLoopback: true }
const reason = (url: string, policy = strict) => {
  const r = checkWebhookUrl(url, policy)
  return r.ok ? null : r.reason
}

describe('addresses', () => {
  test.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.10', 'documentation'],
  ])('IPv4 %s is refused (%s)', (ip, what) => {
    expect(blockedAddress(ip)).toContain(what)
  })

  test.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['64:ff9b:1::a00:1', 'outside global unicast'],
    ['100::1', 'outside global unicast'],
    ['4000::1', 'outside global unicast'],
    ['fec0::1', 'outside global unicast'],
    ['2001::1', 'IETF protocol assignments'],
    ['2001:2::1', 'IETF protocol assignments'],
    ['3fff::1', 'documentation'],
  ])('IPv6 %s is refused (%s)', (ip, what) => {
    expect(blockedAddress(ip)).toContain(what)
  })

  test.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['0:0:0:0:0:ffff:ac10:0001', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'link-local'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2606:4700::5efe:10.0.0.1', 'private'],
    ['2606:4700::200:5efe:7f00:1', 'loopback'],
  ])('an IPv6 form of a refused IPv4 address, %s, is refused as that address (%s)', (ip, what) => {
    expect(blockedAddress(ip)).toContain(what)
  })

  test.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2a00:1450:4001::5efe:8.8.8.8',
  ])('a public address, %s, is allowed', (ip) => {
    expect(blockedAddress(ip)).toBeNull()
  })

  test('one private address among public ones refuses the host', () => {
    expect(
      blockedAmong([
        { address: '8.8.8.8', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ]),
    ).toContain('10.1.2.3')
    expect(
      blockedAmong([
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ]),
    ).toBeNull()
  })

  test('a host with no address is refused', () => {
    expect(blockedAmong([])).toBe('no address')
  })
})

describe('URLs', () => {
  test('an https URL with a public name passes, to be resolved before sending', () => {
    const r = checkWebhookUrl('https://hooks.example.com/plikt?x=1', strict)
    expect(r.ok && r.target.host).toBe('hooks.example.com')
    expect(r.ok && r.target.address).toBeNull()
  })

  test('http is refused', () => {
    expect(reason('http://hooks.example.com/')).toContain('https')
  })

  test('userinfo is refused', () => {
    expect(reason('https://user:pw@hooks.example.com/')).toContain('userinfo')
    expect(reason('https://user@hooks.example.com/')).toContain('userinfo')
  })

  test('a fragment is refused, even an empty one', () => {
    expect(reason('https://hooks.example.com/#x')).toContain('fragment')
    expect(reason('https://hooks.example.com/#')).toContain('fragment')
  })

  test.each(BLOCKED_SUFFIXES.map((s) => s))('a host under %s is refused', (suffix) => {
    expect(reason(`https://hooks${suffix}/`)).toContain(suffix)
    expect(reason(`https://a.b${suffix}./`)).toContain(suffix)
  })

  test.each(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.com', 'localhost'])(
    'the metadata or loopback host %s is refused',
    (host) => {
      expect(reason(`https://${host}/`)).not.toBeNull()
    },
  )

  test.each([
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:0:7f00:1]/',
    'https://[::ffff:0:a9fe:a9fe]/',
    'https://0x7f.1/',
    'https://2130706433/',
    'https://169.254.169.254/latest/meta-data',
  ])('an address literal that is not public, %s, is refused', (url) => {
    expect(reason(url)).toContain('points at')
  })

  test('a public address literal passes and needs no lookup', () => {
    const r = checkWebhookUrl('https://93.184.216.34:8443/hook', strict)
    expect(r.ok && r.target.address).toEqual({ address: '93.184.216.34', family: 4 })
  })

  test('a single-label name is refused', () => {
    expect(reason('https://intranet/')).toContain('fully qualified')
  })

  test('WEBHOOK_ALLOW_LOOPBACK admits http to 127.0.0.1 and localhost, sent to 127.0.0.1', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:8080/hook']) {
      const r = checkWebhookUrl(url, dev)
      expect(r.ok && r.target.address).toEqual({ address: '127.0.0.1', family: 4 })
    }
  })

  test('WEBHOOK_ALLOW_LOOPBACK admits nothing else: other loopback, private hosts and plain http stay refused', () => {
    expect(reason('http://127.0.0.2:8080/', dev)).toContain('https')
    expect(reason('https://127.0.0.2:8080/', dev)).toContain('loopback')
    expect(reason('https://10.0.0.1/', dev)).toContain('private')
    expect(reason('http://hooks.example.com/', dev)).toContain('https')
    expect(reason('https://hooks.local/', dev)).toContain('.local')
  })

  test('without WEBHOOK_ALLOW_LOOPBACK, http://127.0.0.1 and http://localhost are refused', () => {
    expect(reason('http://127.0.0.1:8080/')).not.toBeNull()
    expect(reason('http://localhost:8080/')).not.toBeNull()
  })
})
