// Runs on `npm install` / `npm ci` (package.json "postinstall"), with Node: Bun may not be there yet.
//
// postgres.js 3.4.9 keeps a query pinned on a connection after that connection's socket closed
// under it (it rejects the query but leaves it as the connection's current one). When the pool
// later reconnects that connection while the database refuses connections, the refusal is handed
// to the dead query instead of the caller's, and the connection reconnects forever with the
// caller's query unanswered: a request hangs until the database is back and, on the one-connection
// charge pool, every metered request behind it hangs too. Likewise an error the server sent just
// before closing (57P01 on a terminated session) is kept and handed to the first query of the
// next session. Upstream: porsager/postgres#1193, #1130. The fix forgets the pinned query and the
// kept error when their socket is gone.
//
// It also writes a transaction's BEGIN onto a connection without reserving it when BEGIN is the
// query that fills the connection's pipeline (100 in flight) or meets a full socket buffer: the
// reservation hook is the last term of an `&&` chain those short-circuit. `sql.begin` then runs
// its body with no connection (a TypeError) and the session stays inside the transaction, so
// unrelated queries run in it. On the embedded database's one connection, ~100 concurrent
// requests were enough. And a socket's 'drain' handed a reserved connection back to the pool
// mid-transaction. Upstream: porsager/postgres#1189, #823 (fixes proposed in #1218, #1207). The fix
// runs the hook whenever the query was written and keeps a reserved connection out of the pool.
//
// And the pool's state is not exposed: `sql.pool()` answers its size and how many connections are
// idle and in use, and how many queries wait for one, for the metrics an operator graphs.
//
// test/store/db.test.ts checks every edit is installed and proves the behaviour (the outage on
// PostgreSQL, BEGIN at the pipeline boundary on both); the compiled binary bundles the patched file.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'postgres')
const CLOSED = '/* plikt: forget the query of a closed socket */'
const BEGIN = '/* plikt: reserve the connection BEGIN was written to */'
const DRAIN = '/* plikt: a reserved connection stays out of the pool */'
const POOL = '/* plikt: the pool as a scrape reads it */'
// [the code as published, the code patched]; each is applied once, so a tree patched by an
// earlier version of this script gains only the edits it lacks.
const connectionEdits = [
  [
    '    if (initial)\n      return reconnect()\n',
    `    if (initial)\n      return (query = errorResponse = null, reconnect()) ${CLOSED}\n`,
  ],
  [
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    query = errorResponse = null ${CLOSED}\n`,
  ],
  [
    '      return write(toBuffer(q))\n        && !q.describeFirst\n        && !q.cursorFn\n        && sent.length < max_pipeline\n        && (!q.options.onexecute || q.options.onexecute(connection))\n',
    `      const written = write(toBuffer(q))\n      q.options.onexecute && q.options.onexecute(connection) ${BEGIN}\n      return written\n        && !q.describeFirst\n        && !q.cursorFn\n        && sent.length < max_pipeline\n        && !q.options.onexecute\n`,
  ],
  [
    '  function drain() {\n    !query && onopen(connection)\n',
    `  function drain() {\n    !query && !connection.reserved && onopen(connection) ${DRAIN}\n`,
  ],
]

const indexEdits = [
  [
    '    options,\n    reserve,\n    listen,\n',
    `    options,\n    pool: () => ({ size: options.max, idle: open.length, in_use: busy.length + full.length + reserved.length, waiting: queries.length }), ${POOL}\n    reserve,\n    listen,\n`,
  ],
]
const files = [
  ['src/connection.js', connectionEdits],
  ['cjs/src/connection.js', connectionEdits],
  ['src/index.js', indexEdits],
  ['cjs/src/index.js', indexEdits],
]

let version
try {
  version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
} catch {
  process.exit(0) // postgres is not installed (e.g. a partial install): nothing to patch
}
for (const [file, edits] of files) {
  const path = join(root, file)
  let text = readFileSync(path, 'utf8')
  for (const [from, to] of edits) {
    if (text.includes(to)) continue
    if (!text.includes(from)) {
      console.error(
        `scripts/patch-postgres.mjs: postgres ${version} ${file} no longer has the code this patch fixes; check whether the upstream fix landed and drop or update the patch.`,
      )
      process.exit(1)
    }
    text = text.replace(from, to)
  }
  writeFileSync(path, text)
}
