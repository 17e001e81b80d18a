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
// kept error when their socket is gone. test/store/db.test.ts checks the patch
// is installed and, on PostgreSQL, proves the behaviour; the compiled binary bundles the patched file.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'postgres')
const MARK = '/* plikt: forget the query of a closed socket */'
const edits = [
  [
    '    if (initial)\n      return reconnect()\n',
    `    if (initial)\n      return (query = errorResponse = null, reconnect()) ${MARK}\n`,
  ],
  [
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    query = errorResponse = null ${MARK}\n`,
  ],
]

let version
try {
  version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
} catch {
  process.exit(0) // postgres is not installed (e.g. a partial install): nothing to patch
}
for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
  const path = join(root, file)
  let text = readFileSync(path, 'utf8')
  if (text.includes(MARK)) continue
  for (const [from, to] of edits) {
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
