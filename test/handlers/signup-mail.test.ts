/**
 * Asking for a magic link must not tell whether the address has an account (issue 19, Medium 5):
 * the request path only queues the mail (jobs/mail-queue.ts sends it), so a known and an unknown
 * address get the same answer — status, body and headers — and take the same path, SMTP up or down.
 * And the link is never written to the log (issue 19, Low 12).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runMailQueue } from '../../jobs/mail-queue.ts'
import type { Mailer } from '../../src/upstream/mail/port.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { createConsumer, freshIp, lastMailTo, magicToken, postForm, uniqueEmail } from '../helpers.ts'
import { startSmtpReceiver } from '../helpers.ts'

/** An SMTP address nothing listens on: a receiver's port, once the receiver is closed. */
async function deadSmtpUrl(): Promise<string> {
  const receiver = await startSmtpReceiver()
  await receiver.close()
  return receiver.url
}

/** Everything a client sees except what differs per request (correlation id, the Date header). */
async function observable(res: Response) {
  const headers = [...res.headers.entries()].filter(([name]) => name !== 'x-correlation-id' && name !== 'date').sort()
  return { status: res.status, headers, body: await res.text() }
}

const signupBodies = {
  'e-mail alone (sign in)': (email: string) => ({ email }),
  'e-mail with company (sign up)': (email: string) => ({ email, company_name: 'Likt AS', consent: true }),
}

describe('a known and an unknown address are answered alike', () => {
  for (const smtp of ['SMTP down', 'the operator outbox'] as const) {
    describe(`with ${smtp}`, () => {
      let app: TestApp
      beforeAll(async () => {
        app = await startApp(smtp === 'SMTP down' ? { env: { SMTP_URL: await deadSmtpUrl() } } : {})
      })
      afterAll(() => app.stop())

      for (const [name, body] of Object.entries(signupBodies)) {
        test(`POST /api/v1/account/signup, ${name}`, async () => {
          const known = await createConsumer(app)
          const knownRes = await observable(
            await app.send('POST', '/api/v1/account/signup', body(known.email), freshIp()),
          )
          const unknownRes = await observable(
            await app.send('POST', '/api/v1/account/signup', body(uniqueEmail()), freshIp()),
          )
          expect(knownRes.status).toBe(200)
          expect(unknownRes).toEqual(knownRes)
        })
      }

      test('POST /login (the form)', async () => {
        const known = await createConsumer(app)
        const unknown = uniqueEmail()
        // The page gives the form back with the address the person typed (issue 27, item 15): that
        // echo aside, and the length it adds, the two answers are the same.
        const echoless = async (res: Response, email: string) => {
          const o = await observable(res)
          return {
            ...o,
            headers: o.headers.filter(([name]) => name !== 'content-length'),
            body: o.body.replaceAll(email, 'ADDRESS'),
          }
        }
        const knownRes = await echoless(await postForm(app, '/login', { email: known.email }, freshIp()), known.email)
        const unknownRes = await echoless(await postForm(app, '/login', { email: unknown }, freshIp()), unknown)
        expect(knownRes.status).toBe(200)
        expect(knownRes.body).toContain('value="ADDRESS"')
        expect(unknownRes).toEqual(knownRes)
      })
    })
  }
})

describe('the request path only queues', () => {
  const sent: { to: string; text: string }[] = []
  const spy: Mailer = {
    kind: 'outbox',
    async send(m) {
      sent.push(m)
    },
  }
  let app: TestApp
  beforeAll(async () => {
    app = await startApp({ overrides: { mailer: spy } })
  })
  afterAll(() => app.stop())
  const queued = async () => (await app.deps.sql`select count(*)::int as n from mail_queue`)[0]!.n as number

  test('a known, an unknown and a signing-up address each write one queue row and send nothing', async () => {
    const known = await createConsumer(app)
    const unknown = uniqueEmail()
    const newcomer = uniqueEmail()
    const before = await queued()
    for (const body of [
      { email: known.email },
      { email: unknown },
      { email: newcomer, company_name: 'Ny AS', consent: true },
    ]) {
      expect((await app.send('POST', '/api/v1/account/signup', body, freshIp())).status).toBe(200)
    }
    expect(await queued()).toBe(before + 3)
    expect(sent).toHaveLength(0)
    // The unknown address that leads to no mail is not kept at all.
    expect((await app.deps.sql`select count(*)::int as n from mail_queue where to_email = ${unknown}`)[0]!.n).toBe(0)

    // The job sends (the shared database may hold other tests' mail too: look at these three).
    await runMailQueue(app.deps)
    const ours = [known.email, unknown, newcomer]
    expect(
      sent
        .map((m) => m.to)
        .filter((to) => ours.includes(to))
        .sort(),
    ).toEqual([known.email, newcomer].sort())
    expect(sent.find((m) => m.to === known.email)!.text).toContain(`${app.config.baseUrl}/auth/magic?token=`)
  })
})

describe('the log', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app.stop())

  test('never holds the sign-in link or its token in outbox mode', async () => {
    const email = uniqueEmail()
    expect(
      (await app.send('POST', '/api/v1/account/signup', { email, company_name: 'Logg AS', consent: true }, freshIp()))
        .status,
    ).toBe(200)
    const mail = await lastMailTo(app, email)
    const token = magicToken(mail!.body)
    const logs = app.logs.join('\n')
    expect(logs).toContain('outbox') // the mail was logged as stored…
    expect(logs).not.toContain(token) // …without its link
    expect(logs).not.toContain('/auth/magic')
  })
})
