/** The CSV form of a portfolio's merged deadlines: RFC 4180 quoting, CRLF, the header row. */
import { expect, test } from 'bun:test'
import { CSV_COLUMNS, deadlinesCsv, type MergedDeadline } from '../../../src/domain/portfolios/deadlines.ts'

const entry = (over: Partial<MergedDeadline>): MergedDeadline => ({
  org_number: '984661185',
  company_name: 'POSTEN NORGE AS',
  obligation_id: 'mva-termin',
  deadline_id: 'mva-termin-2-2026',
  obligation_name: 'Mva-melding',
  obligation_name_en: 'VAT return',
  period_label: '2026-T2',
  due_at: '2026-06-10T23:59:59+02:00',
  adjusted_for: null,
  business_day_adjusted: false,
  not_adjusted_reason: null,
  due_rule: null,
  legal_reference: 'skatteforvaltningsforskriften § 8-3-1',
  recurring: true,
  filing_status: 'upcoming',
  ...over,
})

test('a header row names the fields, and every line ends in CRLF', () => {
  const csv = deadlinesCsv([entry({})])
  expect(csv.split('\r\n')).toEqual([CSV_COLUMNS.join(','), expect.stringMatching(/^984661185,POSTEN NORGE AS,/), ''])
  expect(csv.replaceAll('\r\n', '')).not.toContain('\n')
})

test('a field with a comma, a quote or a line break is quoted, its quotes doubled', () => {
  const csv = deadlinesCsv([entry({ company_name: 'Berg, "Sønn" &\nco AS' })])
  expect(csv.split('\r\n')[1]).toContain(',"Berg, ""Sønn"" &\nco AS",')
})

test('a name a spreadsheet would run as a formula is written as text, with a leading apostrophe', () => {
  for (const name of ['=HYPERLINK("http://evil.example")', '+47 AS', '-1+1', '@SUM(A1)'])
    expect(
      deadlinesCsv([entry({ company_name: name })])
        .split('\r\n')[1]!
        .split(',')[1],
    ).toStartWith(name.includes('"') ? '"\'' : "'")
  expect(deadlinesCsv([entry({ company_name: 'Berg AS' })]).split('\r\n')[1]).toContain(',Berg AS,')
})

test('an undated deadline and a shifted one: empty due date; the legal date in original_due_at', () => {
  const csv = deadlinesCsv([
    entry({ due_at: null, deadline_id: null, period_label: null }),
    entry({
      business_day_adjusted: true,
      adjusted_for: {
        reason: { nb: 'helg', en: 'weekend' },
        skipped: [],
        original_due_at: '2026-05-31T23:59:59+02:00',
      } as never,
    }),
  ])
  const [, undated, shifted] = csv.split('\r\n')
  expect(undated!.split(',').slice(3, 8)).toEqual(['', 'Mva-melding', '', '', ''])
  expect(shifted!.split(',').slice(6, 9)).toEqual(['2026-06-10T23:59:59+02:00', '2026-05-31T23:59:59+02:00', 'true'])
})
