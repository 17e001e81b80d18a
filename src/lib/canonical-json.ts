/**
 * RFC 8785 JSON Canonicalization Scheme (JCS). ECMAScript's JSON.stringify already produces the
 * JCS forms of numbers and strings; JCS adds member ordering by UTF-16 code units, which is what
 * the default string comparison in Array.prototype.sort does.
 */
/**
 * The canonical JSON of an object whose members are already canonical JSON (`members`: name →
 * canonical value): for an answer assembled from parts canonicalised once and kept.
 */
export function canonicalMembers(members: Record<string, string>): string {
  const keys = Object.keys(members).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${members[k]}`).join(',')}}`
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('JCS: non-finite number')
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new TypeError(`JCS: ${typeof value} is not JSON`)
    }
    return JSON.stringify(value)
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON(): unknown }).toJSON())
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`
  }
  const keys = Object.keys(value)
    .filter((k) => {
      const v = (value as Record<string, unknown>)[k]
      return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol'
    })
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`
}
