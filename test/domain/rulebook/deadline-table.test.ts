/**
 * Every public deadline of rulebook 1.0.0's rules in 2025, 2026 and 2027, worked out by hand from the due rules and the
 * holiday list in shared/reference/rulebook.md (§1 roll-over, §2 holidays, §3 obligations, §4
 * changes), NOT from the implementation. A year lists the deadlines that FALL in it after any
 * working-day shift (the rulebook's shift rule), so e.g. mva-termin-6-2025 (due 10 Feb 2026) is a 2026 entry.
 *
 * Weekday anchors used: 1 Jan 2025 Wed, 1 Jan 2026 Thu, 1 Jan 2027 Fri.
 * Holidays on working days: 2025: 1 Jan, 17/18/21 Apr, 1 May, 29 May, 9 Jun, 25/26 Dec;
 * 2026: 1 Jan, 2/3/6 Apr, 1 May, 14 May, 25 May, 25 Dec; 2027: 1 Jan, 25/26/29 Mar, 6 May, 17 May.
 * Easter Sunday 2026 = 5 Apr; Whit Sunday 2027 = 16 May.
 *
 * Row: [obligation_id, due date, legal date when shifted (omitted when not shifted)].
 * The rules 1.1.0 added have their own table: deadline-table-1.1.test.ts.
 */
import { describe, expect, test } from 'bun:test'
import { publicDeadlines } from '../../../src/domain/rulebook/public.ts'

type Row = readonly [id: string, due: string, legal?: string]

const TABLE: Record<number, readonly Row[]> = {
  2025: [
    // a-melding: 5th of the following month
    ['a-melding-2024-12', '2025-01-06', '2025-01-05'], // Sun 5 Jan
    ['a-melding-2025-01', '2025-02-05'],
    ['a-melding-2025-02', '2025-03-05'],
    ['a-melding-2025-03', '2025-04-07', '2025-04-05'], // Sat 5 Apr, Sun 6 Apr
    ['a-melding-2025-04', '2025-05-05'],
    ['a-melding-2025-05', '2025-06-05'],
    ['a-melding-2025-06', '2025-07-07', '2025-07-05'], // Sat 5 Jul, Sun 6 Jul
    ['a-melding-2025-07', '2025-08-05'],
    ['a-melding-2025-08', '2025-09-05'],
    ['a-melding-2025-09', '2025-10-06', '2025-10-05'], // Sun 5 Oct
    ['a-melding-2025-10', '2025-11-05'],
    ['a-melding-2025-11', '2025-12-05'],
    // mva-melding, two-month terms
    ['mva-termin-6-2024', '2025-02-10'],
    ['mva-termin-1-2025', '2025-04-10'], // Thu 10 Apr; Easter week starts the 17th
    ['mva-termin-2-2025', '2025-06-10'], // Tue 10 Jun; Whit Monday was the 9th
    ['mva-termin-3-2025', '2025-09-01', '2025-08-31'], // Sun 31 Aug
    ['mva-termin-4-2025', '2025-10-10'],
    ['mva-termin-5-2025', '2025-12-10'],
    ['mva-arstermin-2024', '2025-03-10'],
    // arbeidsgiveravgift and (up to 2025-T6) forskuddstrekk: 15th after each term
    ['arbeidsgiveravgift-termin-6-2024', '2025-01-15'],
    ['arbeidsgiveravgift-termin-1-2025', '2025-03-17', '2025-03-15'], // Sat 15 Mar, Sun 16 Mar
    ['arbeidsgiveravgift-termin-2-2025', '2025-05-15'],
    ['arbeidsgiveravgift-termin-3-2025', '2025-07-15'],
    ['arbeidsgiveravgift-termin-4-2025', '2025-09-15'],
    ['arbeidsgiveravgift-termin-5-2025', '2025-11-17', '2025-11-15'], // Sat 15 Nov, Sun 16 Nov
    ['forskuddstrekk-6-2024', '2025-01-15'],
    ['forskuddstrekk-1-2025', '2025-03-17', '2025-03-15'], // Sat 15 Mar, Sun 16 Mar
    ['forskuddstrekk-2-2025', '2025-05-15'],
    ['forskuddstrekk-3-2025', '2025-07-15'],
    ['forskuddstrekk-4-2025', '2025-09-15'],
    ['forskuddstrekk-5-2025', '2025-11-17', '2025-11-15'], // Sat 15 Nov, Sun 16 Nov
    // tax returns for income year 2024: end of May
    ['skattemelding-upersonlig-2024', '2025-06-02', '2025-05-31'], // Sat 31 May, Sun 1 Jun
    ['skattemelding-naering-2024', '2025-06-02', '2025-05-31'], // Sat 31 May, Sun 1 Jun
    ['selskapsmelding-2024', '2025-06-02', '2025-05-31'], // Sat 31 May, Sun 1 Jun
    // advance tax
    ['forskuddsskatt-upersonlig-1-2024', '2025-02-17', '2025-02-15'], // Sat 15 Feb, Sun 16 Feb
    ['forskuddsskatt-upersonlig-2-2024', '2025-04-15'], // Tue 15 Apr; Maundy Thursday is the 17th
    ['forskuddsskatt-personlig-1-2025', '2025-03-17', '2025-03-15'], // Sat 15 Mar, Sun 16 Mar
    ['forskuddsskatt-personlig-2-2025', '2025-06-16', '2025-06-15'], // Sun 15 Jun
    ['forskuddsskatt-personlig-3-2025', '2025-09-15'],
    ['forskuddsskatt-personlig-4-2025', '2025-12-15'],
    // shareholder register, accounts, audit, beneficial owners
    ['aksjonaerregisteroppgave-2024', '2025-01-31'],
    ['arsregnskap-2024', '2025-07-31'],
    ['revisjon-2024', '2025-07-31'],
    ['reelle-rettighetshavere-2025', '2025-07-31'], // one-time mandatory start date (Thu)
  ],

  2026: [
    ['a-melding-2025-12', '2026-01-05'],
    ['a-melding-2026-01', '2026-02-05'],
    ['a-melding-2026-02', '2026-03-05'],
    ['a-melding-2026-03', '2026-04-07', '2026-04-05'], // Sun 5 Apr (Easter Sunday), Easter Monday 6 Apr
    ['a-melding-2026-04', '2026-05-05'],
    ['a-melding-2026-05', '2026-06-05'],
    ['a-melding-2026-06', '2026-07-06', '2026-07-05'], // Sun 5 Jul
    ['a-melding-2026-07', '2026-08-05'],
    ['a-melding-2026-08', '2026-09-07', '2026-09-05'], // Sat 5 Sep, Sun 6 Sep
    ['a-melding-2026-09', '2026-10-05'],
    ['a-melding-2026-10', '2026-11-05'],
    ['a-melding-2026-11', '2026-12-07', '2026-12-05'], // Sat 5 Dec, Sun 6 Dec
    ['mva-termin-6-2025', '2026-02-10'],
    ['mva-termin-1-2026', '2026-04-10'], // Fri 10 Apr, after Easter
    ['mva-termin-2-2026', '2026-06-10'],
    ['mva-termin-3-2026', '2026-08-31'], // Mon 31 Aug
    ['mva-termin-4-2026', '2026-10-12', '2026-10-10'], // Sat 10 Oct, Sun 11 Oct
    ['mva-termin-5-2026', '2026-12-10'],
    ['mva-arstermin-2025', '2026-03-10'],
    ['arbeidsgiveravgift-termin-6-2025', '2026-01-15'],
    ['arbeidsgiveravgift-termin-1-2026', '2026-03-16', '2026-03-15'], // Sun 15 Mar
    ['arbeidsgiveravgift-termin-2-2026', '2026-05-15'], // Fri 15 May
    ['arbeidsgiveravgift-termin-3-2026', '2026-07-15'],
    ['arbeidsgiveravgift-termin-4-2026', '2026-09-15'],
    ['arbeidsgiveravgift-termin-5-2026', '2026-11-16', '2026-11-15'], // Sun 15 Nov
    // the last bimonthly withholding term; from January 2026 withholding follows each payout
    ['forskuddstrekk-6-2025', '2026-01-15'],
    ['skattemelding-upersonlig-2025', '2026-06-01', '2026-05-31'], // Sun 31 May
    ['skattemelding-naering-2025', '2026-06-01', '2026-05-31'], // Sun 31 May
    ['selskapsmelding-2025', '2026-06-01', '2026-05-31'], // Sun 31 May
    ['forskuddsskatt-upersonlig-1-2025', '2026-02-16', '2026-02-15'], // Sun 15 Feb
    ['forskuddsskatt-upersonlig-2-2025', '2026-04-15'],
    ['forskuddsskatt-personlig-1-2026', '2026-03-16', '2026-03-15'], // Sun 15 Mar
    ['forskuddsskatt-personlig-2-2026', '2026-06-15'],
    ['forskuddsskatt-personlig-3-2026', '2026-09-15'],
    ['forskuddsskatt-personlig-4-2026', '2026-12-15'],
    ['aksjonaerregisteroppgave-2025', '2026-02-02', '2026-01-31'], // Sat 31 Jan, Sun 1 Feb
    ['arsregnskap-2025', '2026-07-31'], // Fri 31 Jul
    ['revisjon-2025', '2026-07-31'],
  ],

  2027: [
    ['a-melding-2026-12', '2027-01-05'],
    ['a-melding-2027-01', '2027-02-05'],
    ['a-melding-2027-02', '2027-03-05'],
    ['a-melding-2027-03', '2027-04-05'], // Mon 5 Apr; Easter Monday 2027 was 29 Mar
    ['a-melding-2027-04', '2027-05-05'],
    ['a-melding-2027-05', '2027-06-07', '2027-06-05'], // Sat 5 Jun, Sun 6 Jun
    ['a-melding-2027-06', '2027-07-05'],
    ['a-melding-2027-07', '2027-08-05'],
    ['a-melding-2027-08', '2027-09-06', '2027-09-05'], // Sun 5 Sep
    ['a-melding-2027-09', '2027-10-05'],
    ['a-melding-2027-10', '2027-11-05'],
    ['a-melding-2027-11', '2027-12-06', '2027-12-05'], // Sun 5 Dec
    ['mva-termin-6-2026', '2027-02-10'],
    ['mva-termin-1-2027', '2027-04-12', '2027-04-10'], // Sat 10 Apr, Sun 11 Apr
    ['mva-termin-2-2027', '2027-06-10'],
    ['mva-termin-3-2027', '2027-08-31'],
    ['mva-termin-4-2027', '2027-10-11', '2027-10-10'], // Sun 10 Oct
    ['mva-termin-5-2027', '2027-12-10'],
    ['mva-arstermin-2026', '2027-03-10'],
    ['arbeidsgiveravgift-termin-6-2026', '2027-01-15'],
    ['arbeidsgiveravgift-termin-1-2027', '2027-03-15'], // Mon 15 Mar, before Easter week
    ['arbeidsgiveravgift-termin-2-2027', '2027-05-18', '2027-05-15'], // Sat 15 May, Whit Sunday 16 May, Whit Monday/17 May
    ['arbeidsgiveravgift-termin-3-2027', '2027-07-15'],
    ['arbeidsgiveravgift-termin-4-2027', '2027-09-15'],
    ['arbeidsgiveravgift-termin-5-2027', '2027-11-15'],
    // no forskuddstrekk entries: 2026 and later withholding is due after each payout
    ['skattemelding-upersonlig-2026', '2027-05-31'], // Mon 31 May
    ['skattemelding-naering-2026', '2027-05-31'],
    ['selskapsmelding-2026', '2027-05-31'],
    ['forskuddsskatt-upersonlig-1-2026', '2027-02-15'],
    ['forskuddsskatt-upersonlig-2-2026', '2027-04-15'],
    ['forskuddsskatt-personlig-1-2027', '2027-03-15'],
    ['forskuddsskatt-personlig-2-2027', '2027-06-15'],
    ['forskuddsskatt-personlig-3-2027', '2027-09-15'],
    ['forskuddsskatt-personlig-4-2027', '2027-12-15'],
    ['aksjonaerregisteroppgave-2026', '2027-02-01', '2027-01-31'], // Sun 31 Jan
    ['arsregnskap-2026', '2027-07-31'], // Sat 31 Jul, NOT shifted: rskl. § 8-3 (1) fee starts 1 Aug
    ['revisjon-2026', '2027-07-31'], // goes with the accounts: Sat 31 Jul, not shifted
  ],
}

const ENTITY_TYPES = ['AS', 'ENK', 'ANS', 'DA', 'NUF']

/** The fifteen rules of rulebook 1.0.0, whose every entry this table lists. */
const RULES_1_0_0 = new Set([
  'a-melding',
  'aksjonaerregisteroppgave',
  'arbeidsgiveravgift-termin',
  'arsregnskap',
  'forskuddsskatt-personlig',
  'forskuddsskatt-upersonlig',
  'forskuddstrekk',
  'mva-arstermin',
  'mva-registrering',
  'mva-termin',
  'reelle-rettighetshavere',
  'revisjon',
  'selskapsmelding',
  'skattemelding-naering',
  'skattemelding-upersonlig',
])

/** The last Sunday of a month (1-based), as YYYY-MM-DD. */
function lastSunday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0))
  last.setUTCDate(last.getUTCDate() - last.getUTCDay())
  return last.toISOString().slice(0, 10)
}

/**
 * Oslo's offset at 23:59:59 local on a date: CEST (+02:00) from the last Sunday of March (the
 * switch is at 02:00 local, so that day ends in summer time) up to the day before the last Sunday
 * of October (which ends in winter time); CET (+01:00) otherwise.
 */
function osloEndOfDayOffset(date: string): string {
  const y = Number(date.slice(0, 4))
  return date >= lastSunday(y, 3) && date < lastSunday(y, 10) ? '+02:00' : '+01:00'
}

function endOfDay(date: string): string {
  return `${date}T23:59:59${osloEndOfDayOffset(date)}`
}

/** rule_id and period label expected from an obligation id, per the id patterns. */
function expectedRuleAndPeriod(id: string): { rule: string; period: string } {
  let m: RegExpExecArray | null
  if ((m = /^(mva-termin|arbeidsgiveravgift-termin|forskuddstrekk)-([1-6])-(\d{4})$/.exec(id))) {
    return { rule: m[1]!, period: `${m[3]}-T${m[2]}` }
  }
  if ((m = /^mva-arstermin-(\d{4})$/.exec(id))) return { rule: 'mva-arstermin', period: `${m[1]}-A` }
  if ((m = /^a-melding-(\d{4})-(\d{2})$/.exec(id))) return { rule: 'a-melding', period: `${m[1]}-${m[2]}` }
  if ((m = /^(forskuddsskatt-upersonlig|forskuddsskatt-personlig)-([1-4])-(\d{4})$/.exec(id))) {
    return { rule: m[1]!, period: `${m[3]}-P${m[2]}` }
  }
  if (
    (m =
      /^(skattemelding-upersonlig|skattemelding-naering|selskapsmelding|aksjonaerregisteroppgave|arsregnskap|revisjon|reelle-rettighetshavere)-(\d{4})$/.exec(
        id,
      ))
  ) {
    return { rule: m[1]!, period: m[2]! }
  }
  throw new Error(`table id does not follow a known pattern: ${id}`)
}

describe('the hand-written table itself', () => {
  test('has the expected number of entries per year', () => {
    // 2025: 12 a-melding + 6 mva + 1 årstermin + 6 AGA + 6 forskuddstrekk + 3 returns + 2 + 4 advance tax
    //       + aksjonær + årsregnskap + revisjon + reelle rettighetshavere = 44
    expect(TABLE[2025]!.length).toBe(44)
    // 2026: as 2025, but one forskuddstrekk (2025-T6) and no reelle rettighetshavere = 38
    expect(TABLE[2026]!.length).toBe(38)
    // 2027: no forskuddstrekk at all = 37
    expect(TABLE[2027]!.length).toBe(37)
  })

  test('every due date is in its year, every legal date is before its due date, and ids are unique', () => {
    for (const [year, rows] of Object.entries(TABLE)) {
      expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length)
      for (const [id, due, legal] of rows) {
        expect(due.startsWith(`${year}-`)).toBe(true)
        if (legal !== undefined) expect(legal < due).toBe(true)
        expectedRuleAndPeriod(id)
      }
    }
  })

  test('the offset oracle: DST switch days in 2025–2027', () => {
    expect(lastSunday(2025, 3)).toBe('2025-03-30')
    expect(lastSunday(2025, 10)).toBe('2025-10-26')
    expect(lastSunday(2026, 3)).toBe('2026-03-29')
    expect(lastSunday(2026, 10)).toBe('2026-10-25')
    expect(lastSunday(2027, 3)).toBe('2027-03-28')
    expect(lastSunday(2027, 10)).toBe('2027-10-31')
    expect(endOfDay('2026-04-07')).toBe('2026-04-07T23:59:59+02:00')
    expect(endOfDay('2026-02-10')).toBe('2026-02-10T23:59:59+01:00')
    expect(endOfDay('2026-10-25')).toBe('2026-10-25T23:59:59+01:00')
    expect(endOfDay('2026-03-29')).toBe('2026-03-29T23:59:59+02:00')
  })
})

for (const year of [2025, 2026, 2027]) {
  describe(`publicDeadlines(${year})`, () => {
    const rows = TABLE[year]!
    const expectedById = new Map(rows.map((r) => [r[0], r]))

    test('lists exactly the obligation ids of the table for the 1.0.0 rules (nothing missing, nothing extra, no duplicates)', () => {
      const got = publicDeadlines(year)
        .filter((d) => RULES_1_0_0.has(d.rule_id))
        .map((d) => d.obligation_id)
      expect(got.length).toBe(new Set(got).size)
      const missing = [...expectedById.keys()].filter((id) => !got.includes(id)).sort()
      const extra = got.filter((id) => !expectedById.has(id)).sort()
      expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    })

    test('deadline is the end of the Oslo due day with the right offset', () => {
      const wrong: string[] = []
      for (const d of publicDeadlines(year)) {
        const row = expectedById.get(d.obligation_id)
        if (!row) continue
        const want = endOfDay(row[1])
        if (d.deadline !== want) wrong.push(`${d.obligation_id}: got ${d.deadline}, expected ${want}`)
      }
      expect(wrong).toEqual([])
    })

    test('adjusted_from and business_day_adjusted mark exactly the shifted entries', () => {
      const wrong: string[] = []
      for (const d of publicDeadlines(year)) {
        const row = expectedById.get(d.obligation_id)
        if (!row) continue
        const legal = row[2]
        const wantFrom = legal === undefined ? null : endOfDay(legal)
        const wantAdjusted = legal !== undefined
        if (d.adjusted_from !== wantFrom || d.business_day_adjusted !== wantAdjusted) {
          wrong.push(
            `${d.obligation_id}: got adjusted_from=${d.adjusted_from} adjusted=${d.business_day_adjusted}, ` +
              `expected adjusted_from=${wantFrom} adjusted=${wantAdjusted}`,
          )
        }
      }
      expect(wrong).toEqual([])
    })

    test('submission_window_closes is the same instant as deadline', () => {
      for (const d of publicDeadlines(year)) expect(d.submission_window_closes).toBe(d.deadline)
    })

    test('rule_id and period follow the id patterns', () => {
      const wrong: string[] = []
      for (const d of publicDeadlines(year)) {
        if (!expectedById.has(d.obligation_id)) continue
        const { rule, period } = expectedRuleAndPeriod(d.obligation_id)
        if (d.rule_id !== rule || d.period !== period) {
          wrong.push(`${d.obligation_id}: got rule_id=${d.rule_id} period=${d.period}, expected ${rule} ${period}`)
        }
        expect(d.obligation_id.startsWith(`${d.rule_id}-`)).toBe(true)
      }
      expect(wrong).toEqual([])
    })

    test('every entry has a legal reference and known entity types', () => {
      for (const d of publicDeadlines(year)) {
        expect(typeof d.legal_reference).toBe('string')
        expect(d.legal_reference.trim().length).toBeGreaterThan(0)
        expect(d.applies_to_entity_types.length).toBeGreaterThan(0)
        for (const t of d.applies_to_entity_types) expect(ENTITY_TYPES).toContain(t)
      }
    })

    test('no mva-registrering entry (it has no calendar date)', () => {
      expect(publicDeadlines(year).some((d) => d.rule_id === 'mva-registrering')).toBe(false)
    })
  })
}

describe('entity types where rulebook.md §3 is unambiguous', () => {
  function typesOf(year: number, id: string): string[] {
    const d = publicDeadlines(year).find((x) => x.obligation_id === id)
    expect(d).toBeDefined()
    return [...d!.applies_to_entity_types].sort()
  }

  test('aksjonærregisteroppgave: AS only (not NUF)', () => {
    expect(typesOf(2026, 'aksjonaerregisteroppgave-2025')).toEqual(['AS'])
  })
  test('skattemelding for næringsdrivende: ENK only', () => {
    expect(typesOf(2026, 'skattemelding-naering-2025')).toEqual(['ENK'])
  })
  test('selskapsmelding: ANS and DA', () => {
    expect(typesOf(2026, 'selskapsmelding-2025')).toEqual(['ANS', 'DA'])
  })
  test('reelle rettighetshavere: not ENK', () => {
    expect(typesOf(2025, 'reelle-rettighetshavere-2025')).not.toContain('ENK')
  })
})

describe('headline cases (rulebook.md §1 notes and §4)', () => {
  function entry(year: number, id: string) {
    const d = publicDeadlines(year).find((x) => x.obligation_id === id)
    expect(d).toBeDefined()
    return d!
  }

  test('a-melding for March 2026: Sun 5 Apr and Easter Monday 6 Apr → Tue 7 Apr 2026', () => {
    const d = entry(2026, 'a-melding-2026-03')
    expect(d.deadline).toBe('2026-04-07T23:59:59+02:00')
    expect(d.adjusted_from).toBe('2026-04-05T23:59:59+02:00')
    expect(d.business_day_adjusted).toBe(true)
    expect(d.period).toBe('2026-03')
  })

  test('skattemelding for 2024 rolled to Mon 2 Jun 2025; for 2025 to Mon 1 Jun 2026', () => {
    expect(entry(2025, 'skattemelding-upersonlig-2024').deadline).toBe('2025-06-02T23:59:59+02:00')
    expect(entry(2026, 'skattemelding-upersonlig-2025').deadline).toBe('2026-06-01T23:59:59+02:00')
    expect(entry(2026, 'skattemelding-naering-2025').adjusted_from).toBe('2026-05-31T23:59:59+02:00')
  })

  test('AGA 2027-T2: Sat 15 May, Whit Sunday, Whit Monday/Constitution Day → Tue 18 May 2027', () => {
    const d = entry(2027, 'arbeidsgiveravgift-termin-2-2027')
    expect(d.deadline).toBe('2027-05-18T23:59:59+02:00')
    expect(d.adjusted_from).toBe('2027-05-15T23:59:59+02:00')
    expect(d.period).toBe('2027-T2')
  })

  test('årsregnskap 2026 stays on Sat 31 Jul 2027 (no roll-over for Regnskapsregisteret)', () => {
    const d = entry(2027, 'arsregnskap-2026')
    expect(d.deadline).toBe('2027-07-31T23:59:59+02:00')
    expect(d.business_day_adjusted).toBe(false)
    expect(d.adjusted_from).toBeNull()
    expect(entry(2027, 'revisjon-2026').deadline).toBe('2027-07-31T23:59:59+02:00')
  })

  test('mva-termin-6-2025 (due 10 Feb 2026) is listed under 2026, not 2025', () => {
    expect(entry(2026, 'mva-termin-6-2025').deadline).toBe('2026-02-10T23:59:59+01:00')
    expect(publicDeadlines(2025).some((d) => d.obligation_id === 'mva-termin-6-2025')).toBe(false)
  })

  test('forskuddstrekk: last bimonthly term 2025-T6 due 15 Jan 2026; nothing for 2026 terms', () => {
    expect(entry(2026, 'forskuddstrekk-6-2025').deadline).toBe('2026-01-15T23:59:59+01:00')
    for (const y of [2026, 2027]) {
      const ids = publicDeadlines(y)
        .filter((d) => d.rule_id === 'forskuddstrekk')
        .map((d) => d.obligation_id)
      expect(ids).toEqual(y === 2026 ? ['forskuddstrekk-6-2025'] : [])
    }
  })

  test('personal advance tax uses 15 Jun (not 15 May) and 15 Dec (not 15 Nov) since income year 2021', () => {
    expect(entry(2027, 'forskuddsskatt-personlig-2-2027').deadline).toBe('2027-06-15T23:59:59+02:00')
    expect(entry(2027, 'forskuddsskatt-personlig-4-2027').deadline).toBe('2027-12-15T23:59:59+01:00')
    expect(entry(2025, 'forskuddsskatt-personlig-2-2025').deadline).toBe('2025-06-16T23:59:59+02:00')
  })

  test('reelle rettighetshavere: the one-time start date 31 Jul 2025 appears only in 2025', () => {
    const d = entry(2025, 'reelle-rettighetshavere-2025')
    expect(d.deadline).toBe('2025-07-31T23:59:59+02:00')
    expect(d.period).toBe('2025')
    expect(d.business_day_adjusted).toBe(false)
    for (const y of [2026, 2027]) {
      expect(publicDeadlines(y).some((x) => x.rule_id === 'reelle-rettighetshavere')).toBe(false)
    }
  })
})
