/**
 * Structured JSON lines. Callers pass only fields that are safe to log: never keys, tokens,
 * secrets or fnr. Redacting the value of a field whose name suggests one is the last line of defence.
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

// The access log writes a line per request, so a line is built as text, not as an object that is
// spread, redacted and stringified whole (that cost a quarter of a public read's CPU: bench/RESULTS.md).
// Field names repeat, so each name's JSON prefix (`,"name":`) and whether it suggests a secret are
// worked out once per name.
const fieldName = new Map<string, { prefix: string; secret: boolean }>()
function nameOf(k: string): { prefix: string; secret: boolean } {
  let name = fieldName.get(k)
  if (name === undefined) fieldName.set(k, (name = { prefix: `,${JSON.stringify(k)}:`, secret: SECRET_FIELD.test(k) }))
  return name
}

let lastMs = 0
let lastIso = ''
/** The current time as ISO text, formatted once per millisecond however many lines share it. */
function isoNow(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

/** One JSON line: `ts`, `level`, `msg`, then the fields (undefined ones left out, as JSON.stringify does). */
export function formatLine(level: LogLevel, msg: string, fields?: Record<string, unknown>): string {
  let line = `{"ts":"${isoNow()}","level":"${level}","msg":${JSON.stringify(msg)}`
  if (fields) {
    for (const k in fields) {
      if (k === 'ts' || k === 'level' || k === 'msg') continue
      const name = nameOf(k)
      const v = fields[k]
      // (the access line's values are mostly numbers and null: no stringify needed for those)
      const value = name.secret
        ? '"[redacted]"'
        : v === null
          ? 'null'
          : typeof v === 'number'
            ? Number.isFinite(v)
              ? String(v)
              : 'null'
            : JSON.stringify(v)
      if (value !== undefined) line += `${name.prefix}${value}`
    }
  }
  return `${line}}`
}

export function createLogger(
  level: LogLevel = 'info',
  sink: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return
    sink(formatLine(lvl, msg, fields))
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    enabled: (lvl) => ORDER[lvl] >= ORDER[level],
  }
}

/**
 * The service's own log sink. Lines are encoded at once into a buffer of `maxBytes` and go to Bun's
 * writer for stdout (a FileSink) together: on a timer, when the buffer is full, and on `flush()`
 * (main.ts calls it when stopping, so no line is lost on SIGTERM). A request never waits for the
 * terminal or the pipe. Two costs are avoided (bench/RESULTS.md): handing each line to the FileSink
 * cost a write() per request (it flushes at the end of every event-loop turn, and under load a turn
 * serves about one request); holding the lines as strings until the timer kept every one alive
 * past the young collections.
 */
export function bufferedStdout(
  intervalMs = 100,
  maxBytes = 64 * 1024,
  out: Pick<Bun.FileSink, 'write' | 'flush'> = Bun.stdout.writer({ highWaterMark: maxBytes }),
): { sink: (line: string) => void; flush(): Promise<void> } {
  const encoder = new TextEncoder()
  let buffer = new Uint8Array(maxBytes)
  let used = 0
  const drain = () => {
    if (used === 0) return
    // The writer may keep the bytes it is given: a new buffer is taken rather than this one reused.
    out.write(buffer.subarray(0, used))
    buffer = new Uint8Array(maxBytes)
    used = 0
    void out.flush()
  }
  const timer = setInterval(drain, intervalMs)
  timer.unref()
  return {
    sink: (line) => {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      const most = line.length * 3 + 1
      if (used + most > maxBytes) drain()
      if (most > maxBytes) {
        out.write(`${line}\n`)
        return
      }
      used += encoder.encodeInto(line, buffer.subarray(used)).written
      buffer[used++] = 0x0a
    },
    async flush() {
      drain()
      await out.flush()
    },
  }
}
