/**
 * A portfolio's calendar feed over real HTTP, against the brreg fixture server: created with a key
 * (201, an absolute URL with a secret token kept only as its hash), read without one as RFC 5545
 * iCalendar — parsed by ical.js and checked line by line against the RFC's rules — holding one
 * all-day event per deadline of the merged deadlines in the window, with UIDs stable across
 * fetches and feeds; ETag and If-None-Match (304, free); the charge (the first calendar of an Oslo
 * day, once; the day's others free; 402 when the owner is out of credits); the per-feed limit;
 * revocation (404, as a made-up token); another account's portfolio and feed (404); the cap.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { byScenario } from '../../fixtures/data/companies.ts'
import { feedCalendar, KeptCalendars } from '../../src/domain/portfolios/feeds.ts'
import { warmRegister } from '../../src/domain/portfolios/warmup.ts'
import { portfolioEnv } from '../../src/handlers/portfolios.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { readBalance } from '../../src/store/credits.ts'
import { PINNED_NOW, startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp } from '../helpers.ts'

const POSTEN = '984661185'
const ENK = '915241700'
const ANS = '921173601'
const UNKNOWN = byScenario('unknown')
const NAME = 'Klienter; Bergen, Vest \\ «Nord»'

let app: TestApp
let consumerId: string
let key: string

beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'professional')
  consumerId = c.id
  await addCredits(app, c.id, 100_000)
  key = (await createKey(app, c.id)).key
}, 30_000)
afterAll(() => app.stop())

async function send(method: string, path: string, body?: unknown, k: string | null = key, headers = {}) {
  const res = await app.send(method, path, body, { ...(k ? bearer(k) : {}), ...freshIp(), ...headers })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    text,
    body: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null) as any,
  }
}

async function portfolio(orgs: string[], k = key, name = NAME): Promise<string> {
  const id = (await send('POST', '/api/v1/portfolios', { name }, k)).body.data.portfolio_id
  expect((await send('PUT', `/api/v1/portfolios/${id}/companies`, { org_numbers: orgs }, k)).status).toBe(200)
  return id
}

async function warmAll() {
  for (let i = 0; i < 200; i++) if ((await warmRegister(app.deps)).claimed === 0) return
  throw new Error('the warm-up did not finish')
}

const newFeed = async (id: string, k = key) => send('POST', `/api/v1/portfolios/${id}/feeds`, undefined, k)
/** A calendar program's fetch: no key, only the URL (and its own validators). */
const fetchFeed = (url: string, headers: Record<string, string> = {}) =>
  send('GET', new URL(url).pathname, undefined, null, headers)
const balance = async () => (await readBalance(app.deps.sql, consumerId)).balance_ore
/** An error envelope without what differs per request. */
const stable = (body: any) =>
  JSON.parse(JSON.stringify(body).replace(/"(correlation_id|timestamp|request_id)":"[^"]*"/g, '"$1":"…"'))

/**
 * RFC 5545's rules, checked by hand on the raw stream: CRLF line ends and no bare CR or LF (§3.1);
 * no content line longer than 75 octets, a fold being CRLF and one space, never inside a UTF-8
 * sequence (§3.1); TEXT values escaped (§3.3.11: no unescaped `,` or `;` in a SUMMARY,
 * DESCRIPTION or X-WR-CALNAME value, a backslash only before `\ , ; n N`); the calendar's
 * required VERSION and PRODID once (§3.6), and each VEVENT's UID and DTSTAMP once (§3.6.1).
 */
function rfc5545Problems(bytes: Uint8Array): string[] {
  const problems: string[] = []
  const raw = new TextDecoder().decode(bytes)
  if (!raw.endsWith('\r\n')) problems.push('does not end with CRLF')
  if (/\r(?!\n)|(?<!\r)\n/.test(raw)) problems.push('a bare CR or LF')
  // Physical lines as octets: at most 75 each, each on its own well-formed UTF-8, and a
  // continuation's first octet after its space never a UTF-8 continuation byte (10xxxxxx).
  const lines: Uint8Array[] = []
  let from = 0
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
      lines.push(bytes.subarray(from, i))
      from = i + 2
    }
  }
  const strict = new TextDecoder('utf-8', { fatal: true })
  for (const [i, l] of lines.entries()) {
    if (l.length > 75) problems.push(`line ${i + 1} is ${l.length} octets`)
    if (l[0] === 0x20 && l[1] !== undefined && (l[1] & 0xc0) === 0x80)
      problems.push(`line ${i + 1} begins inside a character`)
    try {
      strict.decode(l)
    } catch {
      problems.push(`line ${i + 1} is not UTF-8 by itself: a fold split a character`)
    }
  }
  const logical = raw.replaceAll('\r\n ', '').slice(0, -2).split('\r\n')
  const textOf = (line: string) => line.slice(line.indexOf(':') + 1)
  for (const line of logical) {
    const name = line.split(/[;:]/, 1)[0]!
    if (['SUMMARY', 'DESCRIPTION', 'X-WR-CALNAME', 'X-WR-CALDESC'].includes(name)) {
      const v = textOf(line)
      if (/(?<!\\)(?:\\\\)*[,;]/.test(v.replace(/\\[\\,;nN]/g, ''))) problems.push(`unescaped , or ; in ${name}`)
      if (/\\(?![\\,;nN])/.test(v.replace(/\\\\/g, ''))) problems.push(`a stray backslash in ${name}`)
    }
  }
  const count = (lines: string[], name: string) =>
    lines.filter((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`)).length
  const head = logical.slice(0, logical.indexOf('BEGIN:VEVENT') === -1 ? undefined : logical.indexOf('BEGIN:VEVENT'))
  if (logical[0] !== 'BEGIN:VCALENDAR' || logical.at(-1) !== 'END:VCALENDAR') problems.push('not one VCALENDAR')
  if (count(head, 'VERSION') !== 1 || !head.includes('VERSION:2.0')) problems.push('VERSION:2.0 missing')
  if (count(head, 'PRODID') !== 1) problems.push('PRODID missing')
  let event: string[] | null = null
  for (const line of logical) {
    if (line === 'BEGIN:VEVENT') event = []
    else if (line === 'END:VEVENT' && event) {
      for (const p of ['UID', 'DTSTAMP', 'DTSTART'])
        if (count(event, p) !== 1) problems.push(`a VEVENT without one ${p}`)
      event = null
    } else event?.push(line)
  }
  return problems
}

describe('creating a feed', () => {
  let id: string
  let created: any
  beforeAll(async () => {
    id = await portfolio([POSTEN, ENK])
    const r = await newFeed(id)
    expect(r.status).toBe(201)
    created = r.body.data
  })

  test('answers 201 with the feed’s id and an absolute URL at BASE_URL carrying a 190-bit token', () => {
    expect(created).toMatchObject({ portfolio_id: id, max_feeds: 5, window: { past_days: 30, months_ahead: 12 } })
    expect(created.feed_url).toMatch(new RegExp(`^${app.config.baseUrl}/api/v1/feeds/pf_[0-9A-Za-z]{32}$`))
  })

  test('keeps the token as its SHA-256 only', async () => {
    const token = created.feed_url.split('/').at(-1)
    const rows = await app.deps.sql<
      { token_hash: string }[]
    >`select * from portfolio_feeds where id = ${created.feed_id}`
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).toBe(sha256Hex(token))
    expect(JSON.stringify(rows[0])).not.toContain(token)
  })

  test('lists the feed by id, never its URL', async () => {
    const r = await send('GET', `/api/v1/portfolios/${id}/feeds`)
    expect(r.body.data.feeds).toEqual([{ feed_id: created.feed_id, created_at: PINNED_NOW }])
    expect(r.text).not.toContain('pf_')
  })

  test('a sixth feed of a portfolio is 400 VALIDATION_FAILED naming feeds', async () => {
    const other = await portfolio([POSTEN])
    for (let i = 0; i < 5; i++) expect((await newFeed(other)).status).toBe(201)
    const r = await newFeed(other)
    expect({ status: r.status, field: r.body.explanation.details[0].field }).toEqual({ status: 400, field: 'feeds' })
  })
})

describe('the calendar', () => {
  let id: string
  let url: string
  let first: Awaited<ReturnType<typeof fetchFeed>>
  let merged: any[]
  beforeAll(async () => {
    id = await portfolio([POSTEN, ENK, ANS])
    await warmAll()
    url = (await newFeed(id)).body.data.feed_url
    first = await fetchFeed(url)
    merged = (await send('GET', `/api/v1/portfolios/${id}/deadlines`)).body.data.deadlines
  })

  test('is text/calendar, read without a key', () => {
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  })

  test('keeps RFC 5545’s rules: CRLF, folding at 75 octets, escaping, VERSION, PRODID, UID and DTSTAMP', () => {
    expect(rfc5545Problems(first.bytes)).toEqual([])
    // the portfolio's name needs every escape, and the long descriptions need folding
    expect(first.text).toContain('X-WR-CALNAME:Frister – Klienter\\; Bergen\\, Vest \\\\ «Nord»')
    expect(first.text).toContain('\r\n ')
  })

  test('the RFC 5545 check itself finds bare LFs, long lines, unescaped text, split characters and missing properties', () => {
    const long = `SUMMARY:${'a'.repeat(80)}`
    const broken = Buffer.concat([
      Buffer.from(
        `BEGIN:VCALENDAR\r\nX-A:1\nX-B:2\r\nBEGIN:VEVENT\r\nSUMMARY:a, b\r\n${long}\r\nDESCRIPTION:${'a'.repeat(62)}`,
      ),
      Buffer.from('ø').subarray(0, 1),
      Buffer.from('\r\n '),
      Buffer.from('ø').subarray(1),
      Buffer.from('\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'),
    ])
    const problems = rfc5545Problems(broken)
    for (const p of [
      'a bare CR or LF',
      'octets',
      'unescaped , or ; in SUMMARY',
      'begins inside a character',
      'VERSION:2.0 missing',
      'PRODID missing',
    ])
      expect({ p, found: problems.some((x) => x.includes(p)) }).toEqual({ p, found: true })
  })

  test('parses with ical.js: one all-day event per merged deadline due in the last 30 days and the next 12 months', () => {
    const cal = new ICAL.Component(ICAL.parse(first.text))
    expect(cal.getFirstPropertyValue('version')).toBe('2.0')
    expect(cal.getFirstPropertyValue('calscale')).toBe('GREGORIAN')
    const events = cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
    const inWindow = merged.filter(
      (d) => d.due_at && d.due_at.slice(0, 10) >= '2026-02-12' && d.due_at.slice(0, 10) <= '2027-03-14',
    )
    expect(inWindow.length).toBeGreaterThan(10)
    expect(merged.some((d) => d.due_at && d.due_at.slice(0, 10) < '2026-02-12')).toBe(true) // the window trims
    expect(events).toHaveLength(inWindow.length)
    for (const [i, d] of inWindow.entries()) {
      const e = events[i]!
      expect(e.startDate.isDate).toBe(true)
      expect(e.startDate.toString()).toBe(d.due_at.slice(0, 10))
      expect(e.endDate.toString()).toBe(
        new Date(Date.parse(`${d.due_at.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
      )
      expect(e.uid).toBe(`${d.org_number}-${d.deadline_id}@127.0.0.1`)
      expect(e.summary).toBe(`${d.company_name}: ${d.obligation_name}${d.period_label ? ` (${d.period_label})` : ''}`)
      expect(e.description).toContain(`Hjemmel: ${d.legal_reference}`)
      expect(e.description).toContain(`${app.config.baseUrl}/api/v1/company/${d.org_number}/deadlines`)
    }
  })

  test('the calendar’s name reads back as the portfolio’s name through ical.js', () => {
    // X-WR-CALNAME is a TEXT property calendar programs know; ical.js is told so, as they are.
    ICAL.design.icalendar.property['x-wr-calname'] = { defaultType: 'text' }
    const cal = new ICAL.Component(ICAL.parse(first.text))
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe(`Frister – ${NAME}`)
  })

  test('stamps every event with the start of the Oslo day', () => {
    expect(first.text).toContain('DTSTAMP:20260313T230000Z')
  })

  test('UIDs are the same in the next fetch and in another feed of another portfolio', async () => {
    const uids = (text: string) =>
      text
        .replaceAll('\r\n ', '')
        .split('\r\n')
        .filter((l) => l.startsWith('UID:'))
    const again = await fetchFeed(url)
    expect(uids(again.text)).toEqual(uids(first.text))
    const other = await portfolio([POSTEN], key, 'Andre')
    const otherFeed = await fetchFeed((await newFeed(other)).body.data.feed_url)
    const posten = uids(first.text).filter((u) => u.startsWith(`UID:${POSTEN}-`))
    expect(posten.length).toBeGreaterThan(0)
    expect(uids(otherFeed.text)).toEqual(posten)
  })

  test('carries a strong ETag and a private, five-minute Cache-Control', () => {
    expect(first.headers.get('etag')).toBe(`"${sha256Hex(first.text)}"`)
    expect(first.headers.get('cache-control')).toBe('private, max-age=300')
  })

  test('If-None-Match with the ETag answers 304 with no body, and costs nothing', async () => {
    const before = await balance()
    const r = await fetchFeed(url, { 'if-none-match': first.headers.get('etag')! })
    expect({ status: r.status, body: r.text, etag: r.headers.get('etag') }).toEqual({
      status: 304,
      body: '',
      etag: first.headers.get('etag'),
    })
    expect(await balance()).toBe(before)
  })
})

describe('the price', () => {
  test('the first calendar of the Oslo day costs 50 øre, the day’s others nothing, the next day’s 50 again', async () => {
    const id = await portfolio([POSTEN])
    await warmAll()
    const url = (await newFeed(id)).body.data.feed_url
    const b0 = await balance()
    expect((await fetchFeed(url)).status).toBe(200)
    const b1 = await balance()
    expect((await fetchFeed(url)).status).toBe(200)
    expect((await fetchFeed(url)).status).toBe(200)
    const b2 = await balance()
    app.clock.advance(86_400_000)
    try {
      await warmAll()
      expect((await fetchFeed(url)).status).toBe(200)
      const b3 = await balance()
      expect([b0 - b1, b1 - b2, b2 - b3]).toEqual([50, 0, 50])
    } finally {
      app.clock.set(PINNED_NOW)
    }
  })

  test('a calendar with no client answered is free', async () => {
    const id = await portfolio([UNKNOWN]) // pending until the warm-up has asked, then unavailable: never answered
    const url = (await newFeed(id)).body.data.feed_url
    const before = await balance()
    const r = await fetchFeed(url)
    expect(r.status).toBe(200)
    expect(r.text).not.toContain('BEGIN:VEVENT')
    expect(await balance()).toBe(before)
  })

  test('an owner out of credits is answered 402 INSUFFICIENT_CREDITS in the error envelope', async () => {
    const poor = await createConsumer(app, 'professional')
    const poorKey = (await createKey(app, poor.id)).key
    const id = await portfolio([POSTEN], poorKey)
    const url = (await newFeed(id, poorKey)).body.data.feed_url
    const r = await fetchFeed(url)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 402, code: 'INSUFFICIENT_CREDITS' })
  })

  test('whoever holds the URL never learns the owner’s balance or top-up page: not in a 402, not in a 200’s headers', async () => {
    const poor = await createConsumer(app, 'professional')
    const poorKey = (await createKey(app, poor.id)).key
    const url = (await newFeed(await portfolio([POSTEN], poorKey), poorKey)).body.data.feed_url
    const refused = await fetchFeed(url)
    expect(refused.status).toBe(402)
    expect(refused.body).not.toHaveProperty('balance_ore')
    expect(refused.body).not.toHaveProperty('top_up_url')
    const paid = await fetchFeed((await newFeed(await portfolio([POSTEN]))).body.data.feed_url)
    expect(paid.status).toBe(200)
    expect(paid.headers.get('x-credits-balance-ore')).toBeNull()
    expect(paid.headers.get('x-credits-low')).toBeNull()
  })

  test('an owner whose plan fell below Professional is answered 403 PLAN_INSUFFICIENT', async () => {
    const c = await createConsumer(app, 'professional')
    await addCredits(app, c.id, 1000)
    const k = (await createKey(app, c.id)).key
    const url = (await newFeed(await portfolio([POSTEN], k), k)).body.data.feed_url
    expect((await app.send('PATCH', `/api/v1/admin/consumers/${c.id}`, { tier: 'starter' }, admin)).status).toBe(200)
    const r = await fetchFeed(url)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 403, code: 'PLAN_INSUFFICIENT' })
  })

  test('the 61st read of a feed within the hour is 429 FEED_RATE_LIMITED, whoever reads it', async () => {
    const id = await portfolio([POSTEN])
    const url = (await newFeed(id)).body.data.feed_url
    for (let i = 0; i < 60; i++) expect((await fetchFeed(url)).status).toBe(200)
    const r = await fetchFeed(url)
    expect({ status: r.status, code: r.body.error_code }).toEqual({ status: 429, code: 'FEED_RATE_LIMITED' })
    expect(r.headers.get('retry-after')).toBeTruthy()
  })
})

describe('revocation and other accounts', () => {
  test('a revoked feed’s URL answers 404 at once, exactly as a made-up token does', async () => {
    const id = await portfolio([POSTEN])
    const { feed_id, feed_url } = (await newFeed(id)).body.data
    expect((await fetchFeed(feed_url)).status).toBe(200)
    const del = await send('DELETE', `/api/v1/portfolios/${id}/feeds/${feed_id}`)
    expect(del.body.data).toEqual({ feed_id, portfolio_id: id, revoked: true })
    const revoked = await fetchFeed(feed_url)
    const madeUp = await fetchFeed(`${app.config.baseUrl}/api/v1/feeds/pf_00000000000000000000000000000000`)
    expect(revoked.status).toBe(404)
    expect(madeUp.status).toBe(404)
    expect(stable(revoked.body)).toEqual(stable(madeUp.body))
    expect((await send('DELETE', `/api/v1/portfolios/${id}/feeds/${feed_id}`)).status).toBe(404)
  })

  test('deleting the portfolio ends its feeds', async () => {
    const id = await portfolio([POSTEN])
    const { feed_url } = (await newFeed(id)).body.data
    expect((await send('DELETE', `/api/v1/portfolios/${id}`)).status).toBe(200)
    expect((await fetchFeed(feed_url)).status).toBe(404)
  })

  test('another account’s portfolio and feed are 404: no feed made, none listed, none revoked', async () => {
    const id = await portfolio([POSTEN])
    const { feed_id, feed_url } = (await newFeed(id)).body.data
    const other = await createConsumer(app, 'professional')
    const otherKey = (await createKey(app, other.id)).key
    expect((await newFeed(id, otherKey)).status).toBe(404)
    expect((await send('GET', `/api/v1/portfolios/${id}/feeds`, undefined, otherKey)).status).toBe(404)
    expect((await send('DELETE', `/api/v1/portfolios/${id}/feeds/${feed_id}`, undefined, otherKey)).status).toBe(404)
    // and a feed named under another of one's own portfolios is not found either
    const mine = await portfolio([POSTEN])
    expect((await send('DELETE', `/api/v1/portfolios/${mine}/feeds/${feed_id}`)).status).toBe(404)
    expect((await fetchFeed(feed_url)).status).toBe(200)
  })
})

describe('the calendars an instance keeps', () => {
  test('the same entries on the same day give the calendar made before; a new day makes a new one', async () => {
    const id = await portfolio([POSTEN, ENK])
    for (let i = 0; i < 50 && (await warmRegister(app.deps)).claimed > 0; i++);
    const kept = new KeptCalendars()
    const at = (ms: number) =>
      feedCalendar(portfolioEnv(app.deps), consumerId, id, app.config.baseUrl, new Date(ms), kept)
    const first = await at(Date.parse(PINNED_NOW))
    expect(first.events).toBeGreaterThan(0)
    expect(await at(Date.parse(PINNED_NOW) + 60_000)).toBe(first)
    const tomorrow = await at(Date.parse(PINNED_NOW) + 86_400_000)
    expect(tomorrow).not.toBe(first)
    expect(tomorrow.etag).not.toBe(first.etag)
  })

  test('keeps no more calendar text than its bound, the oldest going first', () => {
    const kept = new KeptCalendars(10)
    const cal = (body: string) => ({
      entries: [],
      answered: 1,
      calendar: { body, etag: '"x"', answered: 1, events: 0 },
    })
    kept.set('a', cal('12345'))
    kept.set('b', cal('123456'))
    expect(kept.get('a')).toBeUndefined()
    expect(kept.get('b')?.calendar.body).toBe('123456')
    kept.set('c', cal('01234567890'))
    expect(kept.get('c')).toBeUndefined()
  })
})
