/** Reading JSON from outside without trusting it: a parse that reports failure as undefined, and the object test every mapper starts with. */

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The parsed value, or undefined when the text is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
