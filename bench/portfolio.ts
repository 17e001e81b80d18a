/**
 * An accounting firm's portfolio of 1 000 clients (issue 30, Scale), on the service as shipped
 * (`bun src/main.ts`, default configuration, embedded database). A stand-in register answers every
 * organisation number as an active AS (Posten's fixture entry with the number and name replaced)
 * and counts the calls it gets per second.
 * - Cold: the 1 000 numbers are set on a portfolio; the merged deadlines are asked at once (the
 *   answer names the pending clients instead of waiting: its latency is reported) and then every
 *   2 s until no client is pending. Reported: how long the background warm-up took, the register
 *   calls in all and the most in any one second (target: no burst — the warm-up's own bound).
 * - Warm: the merged deadlines of the 12 months from one key, p99 (target < 300 ms), with the
 *   answer's size and entry count.
 * - Feed: 10 000 reads of the portfolio's calendar feed (target < 100 ms; memory flat), plain GETs
 *   as most calendar programs poll, from many addresses as pollers come (TRUST_PROXY=true with
 *   X-Forwarded-For, the guide's setting behind a proxy), four at a time. A feed answers 60 reads
 *   an hour, so the reads are spread over 170 feeds of 34 portfolios of the same clients (two
 *   accounts: 20 portfolios and 5 feeds each at most). RSS is sampled every 1 000 reads.
 */
import { appendFileSync } from 'node:fs'
import { isValidOrgNumber } from '../fixtures/data/mod11.ts'
import { load, machine } from './harness.ts'
import { dataDir, mintKeys, startFixtures, startService } from './service.ts'

const N = Number(process.env.BENCH_PORTFOLIO_SIZE ?? 1000)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)

const fixtures = await startFixtures()
const template = await (await fetch(`${fixtures.businessRegisterUrl}/enhetsregisteret/api/enheter/984661185`)).text()
/** the register's unit lookups (what the warm-up asks), per second; and every other call (the jobs' own reads) */
const perSecond = new Map<number, number>()
let calls = 0
const others = new Map<string, number>()
const register = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(req) {
    const path = new URL(req.url).pathname
    const m = /^\/enhetsregisteret\/api\/enheter\/(\d{9})$/.exec(path)
    if (!m) {
      const kind = path.replace(/\d{9}/g, '{org}')
      others.set(kind, (others.get(kind) ?? 0) + 1)
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } })
    }
    calls++
    const s = Math.floor(Date.now() / 1000)
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1)
    const body = template.replaceAll('984661185', m[1]!).replace('POSTEN NORGE AS', `KLIENT ${m[1]} AS`)
    return new Response(body, {
      headers: { 'content-type': 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8' },
    })
  },
})

// live upstream mode, so the service asks the stand-in register (fixtures mode would start its own)
const data = dataDir()
const service = await startService({
  DATA_DIR: data.path,
  UPSTREAM_MODE: 'live',
  BUSINESS_REGISTER_URL: `http://127.0.0.1:${register.port}`,
  CENTRAL_BANK_URL: fixtures.centralBankUrl,
  TRUST_PROXY: 'true',
})
const base = service.url
try {
  const [key] = await mintKeys(base, 1, 'portfolio')
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const orgs: string[] = []
  for (let p = 31_000_000; orgs.length < N; p++)
    for (let d = 0; d <= 9; d++)
      if (isValidOrgNumber(`${p}${d}`)) {
        orgs.push(`${p}${d}`)
        break
      }
  const created = await (
    await fetch(`${base}/api/v1/portfolios`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench' }) })
  ).json()
  const id = (created as any).data.portfolio_id
  const put = await fetch(`${base}/api/v1/portfolios/${id}/companies`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ org_numbers: orgs }),
  })
  if (!put.ok) throw new Error(`set companies: ${put.status} ${await put.text()}`)
  const url = `${base}/api/v1/portfolios/${id}/deadlines?horizon_months=12`

  // Cold
  const t0 = performance.now()
  const callsBefore = calls
  let firstMs = 0
  let pending = N
  for (let i = 0; pending > 0; i++) {
    const t = performance.now()
    const r = (await (await fetch(url, { headers: auth })).json()) as any
    if (i === 0) firstMs = performance.now() - t
    pending = r.data.states.pending
    if (i === 0)
      console.log(
        `first answer: ${firstMs.toFixed(0)} ms, states ${JSON.stringify(r.data?.states ?? r)}, e.g. ${JSON.stringify(r.data?.companies?.[0])}`,
      )
    if (pending > 0) await Bun.sleep(2000)
  }
  const warmS = (performance.now() - t0) / 1000
  const upstream = calls - callsBefore
  const peak = Math.max(0, ...perSecond.values())

  // Warm
  const sample = await fetch(url, { headers: auth })
  const bytes = (await sample.arrayBuffer()).byteLength
  const entries = ((await (await fetch(url, { headers: auth })).json()) as any).data.deadlines.length
  const warm = await load({ url, headers: { authorization: `Bearer ${key}` }, seconds, connections: 1 })
  const rss = service.rssMb()

  // Feed
  const FEED_READS = Number(process.env.BENCH_FEED_READS ?? 10_000)
  const feeds: string[] = []
  const accounts = [key, ...(await mintKeys(base, 1, 'portfolio-feeds'))]
  for (const k of accounts) {
    const h = { authorization: `Bearer ${k}`, 'content-type': 'application/json' }
    for (let p = 0; p < 20 && feeds.length * 59 < FEED_READS + 300; p++) {
      const made = (await (
        await fetch(`${base}/api/v1/portfolios`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ name: `Feed ${p}` }),
        })
      ).json()) as any
      const pid = made.data?.portfolio_id
      if (!pid) break // the account's 20 (the first account has the warm one already)
      await fetch(`${base}/api/v1/portfolios/${pid}/companies`, {
        method: 'PUT',
        headers: h,
        body: JSON.stringify({ org_numbers: orgs }),
      })
      for (let f = 0; f < 5 && feeds.length * 59 < FEED_READS + 300; f++) {
        const feed = (await (
          await fetch(`${base}/api/v1/portfolios/${pid}/feeds`, { method: 'POST', headers: h })
        ).json()) as any
        feeds.push(feed.data.feed_url)
      }
    }
  }
  const feedMs: number[] = []
  const feedRss: number[] = [service.rssMb()]
  const statuses = new Map<number, number>()
  let feedBytes = 0
  let next = 0
  const reader = async () => {
    for (let i = next++; i < FEED_READS; i = next++) {
      const t = performance.now()
      const res = await fetch(feeds[i % feeds.length]!, {
        headers: { 'x-forwarded-for': `10.9.${(i >> 8) & 255}.${i & 255}` },
      })
      const body = await res.arrayBuffer()
      feedMs.push(performance.now() - t)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      if (res.status === 200) feedBytes = body.byteLength
      if ((i + 1) % 1000 === 0) feedRss.push(service.rssMb())
    }
  }
  await Promise.all([reader(), reader(), reader(), reader()])
  feedMs.sort((a, b) => a - b)
  const pct = (q: number) => feedMs[Math.min(feedMs.length - 1, Math.floor(q * feedMs.length))]!
  // One poller at a time, as a calendar program's hourly poll meets an otherwise quiet service.
  const alone: number[] = []
  for (let i = 0; i < 300; i++) {
    const t = performance.now()
    await (
      await fetch(feeds[i % feeds.length]!, { headers: { 'x-forwarded-for': `10.8.${i >> 8}.${i & 255}` } })
    ).arrayBuffer()
    alone.push(performance.now() - t)
  }
  alone.sort((a, b) => a - b)

  const table = [
    `### Portfolio of ${N} clients (issue 30) — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`npm run bench -- portfolio\`. The service as shipped (\`bun src/main.ts\`, embedded database, access log to a file); a stand-in register answering every number as an active AS; ${machine()}.`,
    '',
    '| measure | value | target |',
    '|---|---|---|',
    `| cold: first merged answer after setting ${N} clients (all pending) | ${firstMs.toFixed(0)} ms | answers at once |`,
    `| cold: background warm-up until no client pending | ${warmS.toFixed(0)} s | within the register’s limits |`,
    `| cold: register unit lookups in all / most in one second | ${upstream} / ${peak} | no burst: one warm-up run (≤ 10 organisations) every 2 s an instance |`,
    `| other calls the stand-in register got meanwhile (the service's own jobs) | ${[...others].map(([k, n]) => `${k}: ${n}`).join('; ') || 'none'} | |`,
    `| warm: merged deadlines, 12 months, one key, one connection: p50 / p99 | ${warm.p50_ms.toFixed(0)} / ${warm.p99_ms.toFixed(0)} ms | p99 < 300 ms |`,
    `| warm: requests a second, non-2xx | ${warm.rps.toFixed(1)}, ${warm.non2xx} | |`,
    `| warm: answer size, entries | ${(bytes / 1e6).toFixed(1)} MB, ${entries} | |`,
    `| service RSS after the warm run | ${rss.toFixed(0)} MB | |`,
    `| feed: ${FEED_READS} reads of ${feeds.length} feeds, four at a time: p50 / p99 / max | ${pct(0.5).toFixed(0)} / ${pct(0.99).toFixed(0)} / ${feedMs.at(-1)!.toFixed(0)} ms | < 100 ms |`,
    `| feed: 300 more reads one at a time: p50 / p99 | ${alone[150]!.toFixed(0)} / ${alone[296]!.toFixed(0)} ms | < 100 ms |`,
    `| feed: answers by status; calendar size | ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}; ${(feedBytes / 1e3).toFixed(0)} kB | all 200 |`,
    `| feed: RSS every 1 000 reads, MB | ${feedRss.map((m) => m.toFixed(0)).join(', ')} | flat |`,
    '',
  ].join('\n')
  console.log(table)
  if (process.argv.includes('--record')) appendFileSync('bench/RESULTS.md', `\n${table}`)
} finally {
  await service.stop()
  data.remove()
  register.stop(true)
  await fixtures.stop()
}
