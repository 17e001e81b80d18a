/**
 * A deterministic stand-in for the portal's instance list: the same organisation number always
 * gives the same filings (derived from a hash of it), a quarter of all numbers have none, and the
 * history covers January 2025 to October 2026 — VAT returns per term, a-melding per month, the
 * tax return and the annual accounts per year. Nothing depends on the clock.
 */
import { createHash } from 'node:crypto'
import type { Sql } from '../../store/db.ts'
import { filingsOf } from '../../store/delegations.ts'
import type { FilingPortal, PortalInstance } from './port.ts'

interface Form {
  appId: string
  org: string
  nb: string
  en: string
}

const FORMS = {
  mva: { appId: 'skd/mva-melding-innsending-v1', org: 'skd', nb: 'Mva-melding', en: 'VAT return' },
  amelding: { appId: 'skd/a-melding-v1', org: 'skd', nb: 'A-melding', en: 'A-melding (employer report)' },
  skattemelding: {
    appId: 'skd/formueinntekt-skattemelding-v2',
    org: 'skd',
    nb: 'Skattemelding for aksjeselskap',
    en: 'Company tax return',
  },
  aarsregnskap: { appId: 'brg/aarsregnskap-v1', org: 'brg', nb: 'Årsregnskap', en: 'Annual accounts' },
} satisfies Record<string, Form>

function uuidFrom(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

function instance(org: string, partyId: string, form: Form, period: string, submitted: string): PortalInstance {
  return {
    id: `${partyId}/${uuidFrom(`${org}:${form.appId}:${period}`)}`,
    appId: form.appId,
    org: form.org,
    instanceOwner: { partyId, organisationNumber: org },
    title: { nb: `${form.nb} ${period}`, en: `${form.en} ${period}` },
    lastChanged: submitted,
    status: { isArchived: true, archived: submitted, isSoftDeleted: false },
    process: { ended: submitted, currentTask: null },
  }
}

export function mockInstances(org: string): PortalInstance[] {
  const digest = createHash('sha256').update(`plikt-portal:${org}`).digest()
  if (digest[0]! % 4 === 0) return []
  const partyId = String(50_000_000 + (digest.readUInt32BE(1) % 10_000_000))
  const employer = digest[5]! % 3 !== 0
  const out: PortalInstance[] = []
  for (const year of [2025, 2026]) {
    for (let term = 1; term <= 6; term++) {
      // due the 10th of the second month after the term; filed a few days before
      const month = term * 2 + 2
      if (year === 2026 && month > 10) break
      const y = month > 12 ? year + 1 : year
      const m = month > 12 ? month - 12 : month
      out.push(
        instance(
          org,
          partyId,
          FORMS.mva,
          `${year}-T${term}`,
          `${y}-${String(m).padStart(2, '0')}-0${2 + (digest[6 + term]! % 7)}T09:${String(digest[term]! % 60).padStart(2, '0')}:00Z`,
        ),
      )
    }
    if (employer) {
      for (let month = 1; month <= 12; month++) {
        const y = month === 12 ? year + 1 : year
        const m = month === 12 ? 1 : month + 1
        if (y === 2026 && m > 10) break
        out.push(
          instance(
            org,
            partyId,
            FORMS.amelding,
            `${year}-${String(month).padStart(2, '0')}`,
            `${y}-${String(m).padStart(2, '0')}-0${1 + (digest[month]! % 4)}T07:${String(digest[month + 8]! % 60).padStart(2, '0')}:00Z`,
          ),
        )
      }
    }
  }
  out.push(instance(org, partyId, FORMS.skattemelding, '2024', `2025-05-${20 + (digest[20]! % 10)}T12:00:00Z`))
  out.push(instance(org, partyId, FORMS.aarsregnskap, '2024', `2025-06-${10 + (digest[21]! % 19)}T10:30:00Z`))
  out.push(instance(org, partyId, FORMS.skattemelding, '2025', `2026-05-${20 + (digest[22]! % 10)}T12:00:00Z`))
  out.push(instance(org, partyId, FORMS.aarsregnskap, '2025', `2026-06-${10 + (digest[23]! % 19)}T10:30:00Z`))
  return out.sort((a, b) =>
    a.lastChanged < b.lastChanged ? 1 : a.lastChanged > b.lastChanged ? -1 : a.id < b.id ? 1 : -1,
  )
}

export const mockFilingPortal: FilingPortal = {
  mock: true,
  instances: async (org) => mockInstances(org),
}

/**
 * The mock portal as the mock submitter leaves it: the fixed history, plus every return filed
 * through Plikt (the filings table holds what the mock submitter "sent"), so a filing shows in
 * the filing history — paired with its audit row — as it would at the real portal.
 */
export function mockFilingPortalWithFilings(sql: Sql): FilingPortal {
  return {
    mock: true,
    async instances(org) {
      const filed = (await filingsOf(sql, org))
        .filter((f) => f.action_type === 'mva_melding' && f.portal_instance_id !== null)
        .map((f) => {
          const at = f.filed_at.toISOString()
          const i = instance(org, f.portal_instance_id!.split('/')[0]!, FORMS.mva, f.period, at)
          return { ...i, id: f.portal_instance_id! }
        })
      const fixed = mockInstances(org)
      return [...filed, ...fixed].sort((a, b) =>
        a.lastChanged < b.lastChanged ? 1 : a.lastChanged > b.lastChanged ? -1 : a.id < b.id ? 1 : -1,
      )
    },
  }
}
