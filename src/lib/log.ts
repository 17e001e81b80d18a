/**
 * Structured JSON lines. Callers pass only fields that are safe to log: never keys, tokens,
 * secrets or fnr. `redactLogFields` is the last line of defence for field names that suggest one.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /** whether a line of this level would be written: lets a hot path skip building its fields */
  enabled(level: LogLevel): boolean
}

const SECRET_FIELD = /(authorization|password|secret|token|api_?key|fnr|cookie)/i

export function redactLogFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : v
  return out
}

export function createLogger(
  level: LogLevel = 'info',
  sink: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return
    sink(JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, ...(fields ? redactLogFields(fields) : {}) }))
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    enabled: (lvl) => ORDER[lvl] >= ORDER[level],
  }
}
