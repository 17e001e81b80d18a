/**
 * jobs/mail-queue.ts on a database of its own (a run claims every due mail, so the shared database
 * would hand it other tests' mail), driven directly on a pinned clock: the real SMTP receiver gets
 * what the job sends; a failing mailer stands in for SMTP going down and coming back.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS, mailRetryDelayMs, runMailQueue } from '../../jobs/mail-queue.ts'
import { QUEUE_JOBS, queueCronPattern } from '../../jobs/runner.ts'
import { fixedClock } from '../../src/lib/clock.ts'
import type { Database } from '../../src/store/db.ts'
import { loadMigrations, migrate } from '../../src/store/migrate.ts'
import type { Mailer } from '../../src/upstream/mail/port.ts'
import { createConsumer, freshIp, magicToken, postForm, uniqueEmail } from '../helpers.ts'
import { PINNED_NOW, scratchDatabase, startApp, type TestApp } from '../helpers.ts'
import { mailText, startSmtpReceiver, type SmtpReceiver } from '../helpers.ts'

let db: Database
let smtp: SmtpReceiver
let app: TestApp
const clock = fixedClock(PINNED_NOW)

beforeAll(async () => {
  db = await scratchDatabase()
  await migrate(db.sql, await loadMigrations())
  smtp = await startSmtpReceiver()
  app = await startApp({ db, clock, env: { SMTP_URL: smtp.url } })
}, 30_000)
afterAll(async () => {
  await app.stop()
  await smtp.close()
  await db.close()
})
beforeEach(async () => {
  clock.set(PINNED_NOW)
  await db.sql`delete from mail_queue`
})

/** The job as the scheduler runs it, with the app's SMTP mailer unless another is given. */
const run = (mailer: Mailer = app.deps.mailer) => runMailQueue({ ...app.deps, mailer })

async function signup(body: Record<string, unknown>): Promise<void> {
  const res = await app.send('POST', '/api/v1/account/signup', body, freshIp())
  expect(res.status).toBe(200)
}

interface Row {
  id: string
  to_email: string | null
  status: string
  attempts: number
  body_text: string
  next_attempt_at: Date
  last_error: string | null
}
const rows = async (): Promise<Row[]> => [
  ...(await db.sql<
    Row[]
  >`select id, to_email, status, attempts, body_text, next_attempt_at, last_error from mail_queue order by created_at, id`),
]

/** A mailer that fails while `down` and records what it sends. */
function flakyMailer() {
  const m = {
    down: true,
    sent: [] as { to: string; text: string }[],
    kind: 'smtp' as const,
    async send(msg: { to: string; subject: string; text: string }) {
      if (m.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25')
      m.sent.push(msg)
    },
  }
  return m
}

describe('the mail job', () => {
  test('is scheduled every five seconds on every instance (each mail is claimed on its own, so it needs no tick)', () => {
    expect(QUEUE_JOBS['mail-queue']!.run).toBe(runMailQueue)
    expect(queueCronPattern(QUEUE_JOBS['mail-queue']!)).toBe('*/5 * * * * *')
  })

  test('delivers a known address’s sign-in link over SMTP; the request only queued it', async () => {
    const known = await createConsumer(app)
    const before = smtp.messages.length
    await signup({ email: known.email })
    expect(smtp.messages.length).toBe(before) // nothing sent in the request path
    expect((await rows()).map((r) => [r.to_email, r.status])).toEqual([[known.email, 'queued']])

    expect(await run()).toEqual({ sent: 1, failed: 0, dropped: 0 })
    const mail = await smtp.waitFor((m) => m.to.includes(known.email))
    const text = mailText(mail.raw)
    expect(text).toContain(`${app.config.baseUrl}/auth/magic?token=`)
    // The link works: it signs the owner in.
    const signedIn = await postForm(app, '/auth/magic', { token: magicToken(text) }, freshIp())
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('set-cookie')).toContain('plikt_session=')

    // Marked sent, without the link; a second run sends nothing again.
    expect((await rows()).map((r) => [r.status, r.body_text])).toEqual([['sent', '']])
    expect(await run()).toEqual({ sent: 0, failed: 0, dropped: 0 })
    expect(smtp.messages.filter((m) => m.to.includes(known.email))).toHaveLength(1)
  })

  test('drops the row of an unknown address that asked to sign in: nothing sent, no address kept', async () => {
    const email = uniqueEmail()
    const before = smtp.messages.length
    await signup({ email })
    expect((await rows()).map((r) => [r.to_email, r.status, r.body_text])).toEqual([[null, 'queued', '']])
    expect((await db.sql`select count(*)::int as n from magic_links where email = ${email}`)[0]!.n).toBe(0)
    expect(await run()).toEqual({ sent: 0, failed: 0, dropped: 1 })
    expect(await rows()).toEqual([])
    expect(smtp.messages.length).toBe(before)
  })

  test('keeps a mail whose send failed, retries it after the backoff, and sends it when SMTP is back', async () => {
    const mailer = flakyMailer()
    const email = uniqueEmail()
    await signup({ email, company_name: 'Retry AS', consent: true })

    expect(await run(mailer)).toEqual({ sent: 0, failed: 1, dropped: 0 })
    let [row] = await rows()
    expect(row).toMatchObject({ to_email: email, status: 'queued', attempts: 1 })
    expect(row!.last_error).toContain('ECONNREFUSED')
    expect(row!.next_attempt_at.getTime()).toBe(new Date(PINNED_NOW).getTime() + mailRetryDelayMs(1))
    expect(app.logs.some((l) => l.includes('mail not sent: will retry'))).toBe(true)

    // Not before the backoff has passed…
    clock.advance(mailRetryDelayMs(1) - 1)
    expect(await run(mailer)).toEqual({ sent: 0, failed: 0, dropped: 0 })
    // …then again (still down), with a longer wait…
    clock.advance(1)
    expect(await run(mailer)).toEqual({ sent: 0, failed: 1, dropped: 0 })
    ;[row] = await rows()
    expect(row).toMatchObject({ status: 'queued', attempts: 2 })
    expect(mailRetryDelayMs(2)).toBe(2 * mailRetryDelayMs(1))
    // …and delivered once SMTP answers.
    mailer.down = false
    clock.advance(mailRetryDelayMs(2))
    expect(await run(mailer)).toEqual({ sent: 1, failed: 0, dropped: 0 })
    expect(mailer.sent.map((m) => m.to)).toEqual([email])
    expect(mailer.sent[0]!.text).toContain('/auth/magic?token=')
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 3 })
  })

  test(`gives up after ${MAIL_MAX_ATTEMPTS} attempts but keeps the mail, as failed`, async () => {
    const mailer = flakyMailer()
    const known = await createConsumer(app)
    await signup({ email: known.email })
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await run(mailer)).toEqual({ sent: 0, failed: 1, dropped: 0 })
      clock.advance(mailRetryDelayMs(attempt))
    }
    const [row] = await rows()
    expect(row).toMatchObject({ to_email: known.email, status: 'failed', attempts: MAIL_MAX_ATTEMPTS })
    expect(row!.body_text).toContain('/auth/magic?token=')
    expect(app.logs.some((l) => l.includes('given up'))).toBe(true)
    clock.advance(24 * 3600_000)
    expect(await run(mailer)).toEqual({ sent: 0, failed: 0, dropped: 0 })
  })

  test('a mail claimed by a sender that never reported back is due again once its lease runs out', async () => {
    const known = await createConsumer(app)
    await signup({ email: known.email })
    const hung: Mailer = { kind: 'smtp', send: () => new Promise<void>(() => {}) }
    void run(hung) // claims the mail and never finishes
    await Bun.sleep(50)
    const [row] = await rows()
    expect(row).toMatchObject({ status: 'queued', attempts: 1 })
    const mailer = flakyMailer()
    mailer.down = false
    expect(await run(mailer)).toEqual({ sent: 0, failed: 0, dropped: 0 })
    clock.advance(MAIL_LEASE_MS)
    expect(await run(mailer)).toEqual({ sent: 1, failed: 0, dropped: 0 })
    expect(mailer.sent.map((m) => m.to)).toEqual([known.email])
  })

  test('two runs at once send each mail once', async () => {
    const emails = Array.from({ length: 6 }, () => uniqueEmail('twice'))
    for (const email of emails) await signup({ email, company_name: 'Samtidig AS', consent: true })
    const sent: string[] = []
    // A slow mailer keeps both runs busy at the same time.
    const slow: Mailer = {
      kind: 'smtp',
      async send({ to }) {
        await Bun.sleep(20)
        sent.push(to)
      },
    }
    const [a, b] = await Promise.all([run(slow), run(slow)])
    expect(a.sent + b.sent).toBe(emails.length)
    expect(a.sent).toBeGreaterThan(0)
    expect(b.sent).toBeGreaterThan(0)
    expect(sent.sort()).toEqual([...emails].sort())
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true)
  })
})
