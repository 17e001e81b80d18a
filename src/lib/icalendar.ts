/**
 * iCalendar (RFC 5545) text, written by hand: content lines are CRLF-terminated and folded so no
 * line is longer than 75 octets (§3.1: a fold is CRLF followed by one space, which counts toward
 * the next line's 75), never inside a UTF-8 sequence; TEXT values escape backslash, semicolon,
 * comma and line breaks (§3.3.11).
 */

const MAX_OCTETS = 75

/** A code point's length in UTF-8. */
function octets(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
}

/** A TEXT value (§3.3.11): `\` → `\\`, `;` → `\;`, `,` → `\,`, any line break → `\n`. */
export function escapeText(value: string): string {
  return value.replace(/\r\n|[\\;,\r\n]/g, (c) => (c === '\\' ? '\\\\' : c === ';' ? '\\;' : c === ',' ? '\\,' : '\\n'))
}

/** One content line folded at 75 octets: whole code points only, each continuation starting with a space. */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_OCTETS) return line
  const out: string[] = []
  let current = ''
  let used = 0
  for (const ch of line) {
    const n = octets(ch.codePointAt(0)!)
    if (used + n > MAX_OCTETS) {
      out.push(current)
      current = ` ${ch}`
      used = 1 + n
    } else {
      current += ch
      used += n
    }
  }
  out.push(current)
  return out.join('\r\n')
}

/** A property as a content line: `NAME;PARAM=…:value`, the value written as given (escape TEXT first). */
export function property(name: string, value: string, params: Record<string, string> = {}): string {
  const p = Object.entries(params)
    .map(([k, v]) => `;${k}=${v}`)
    .join('')
  return `${name}${p}:${value}`
}

/** The lines as an iCalendar stream: each folded, each ended by CRLF. */
export function contentLines(lines: readonly string[]): string {
  return lines.map((l) => `${foldLine(l)}\r\n`).join('')
}

/** A local date `2026-03-10` as an iCalendar DATE, `20260310`. */
export function icalDate(date: string): string {
  return date.replaceAll('-', '')
}

/** An instant as an iCalendar UTC DATE-TIME, `20260310T230000Z`. */
export function icalUtc(instant: Date): string {
  return `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`
}
