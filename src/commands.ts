/**
 * The commands of the binary besides `serve`: `migrate`, `backup <file>`, `restore <file>`,
 * `export --to postgres://…`, `rotate-receipt-key [--valid-from …]` and `archive-ledger <month> <file>`. Each reads the same configuration as the service, answers `--help`,
 * and exits 2 on a bad argument, 1 when it could not do its work, 0 when it did.
 */
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { createGunzip, gzipSync } from 'node:zlib'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { exclusiveWriter, writeFileExclusively } from './lib/exclusive-file.ts'
import {
  deleteArchivedMonth,
  LedgerArchiveRefused,
  verifyMonthArchive,
  writeMonthArchive,
} from './domain/billing/ledger.ts'
import { secretFromDataDir, serverKeys } from './lib/server-secret.ts'
import { ROTATION_LEAD_MS, rotateReceiptKeys } from './domain/actions/receipt-keys.ts'
import { sha256Hex } from './lib/hash.ts'
import { packBackup, unpackBackup } from './lib/backup-archive.ts'
import { readInstanceFile } from './lib/instance-file.ts'
import { readSecretFile, secretFingerprint, writeSecretFile } from './lib/server-secret.ts'
import {
  DatabaseLockedError,
  DataDirError,
  openEmbedded,
  openPostgres,
  RestoreRefusedError,
  restoreEmbedded,
  type Database,
} from './store/db.ts'
import { loadMigrations, migrate, MigrationError } from './store/migrate.ts'
import { copyTable, isEmptyDatabase, resetIdentities, tableSum, tablesInDependencyOrder } from './store/transfer.ts'

class UsageError extends Error {}
class CommandFailed extends Error {}

interface Command {
  usage: string
  summary: string
  /** what `--help` adds below the usage line */
  help: string
  options?: Record<string, { type: 'string' | 'boolean' }>
  positionals: number
  run(config: Config, positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void>
}

const say = (line: string) => process.stdout.write(`${line}\n`)

async function openForCommand(config: Config): Promise<Database> {
  try {
    return await (config.databaseUrl ? openPostgres(config.databaseUrl, 2) : openEmbedded(config.dataDir))
  } catch (e) {
    if (e instanceof DatabaseLockedError)
      throw new CommandFailed(`${e.message} Stop it first: this command needs the database to itself.`)
    throw e
  }
}

/**
 * Asks the instance serving DATA_DIR for the copy, through the operator API, at the address it
 * wrote into DATA_DIR (lib/instance-file.ts), else at BASE_URL.
 */
async function backupFromRunningInstance(config: Config): Promise<Blob> {
  if (!config.adminToken) {
    throw new CommandFailed(
      `an instance is serving ${config.dataDir} and holds its lock: set ADMIN_TOKEN (the one it runs with) so the backup can be taken through its operator API`,
    )
  }
  const base = readInstanceFile(config.dataDir)?.url ?? config.baseUrl
  const url = `${base}/api/v1/admin/backup`
  let res: Response
  try {
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${config.adminToken}` } })
  } catch (e) {
    throw new CommandFailed(
      `an instance holds ${config.dataDir}, but ${url} does not answer (${(e as Error).message}); set BASE_URL to the address it listens on`,
    )
  }
  if (res.status !== 200)
    throw new CommandFailed(
      `the running instance refused the backup: ${res.status} ${(await res.text()).slice(0, 300)}`,
    )
  return res.blob()
}

/**
 * The secret the service on DATA_DIR signs with, which the backup must carry: SERVER_SECRET when
 * set, else DATA_DIR/server-secret; checked against the fingerprint a running instance wrote.
 */
function secretToKeep(config: Config, running: boolean): string {
  const secret = config.serverSecret ?? readSecretFile(config.dataDir)
  if (secret === null) {
    throw new CommandFailed(
      `${config.dataDir} holds no server-secret and SERVER_SECRET is unset: run backup with the SERVER_SECRET the service runs with, so the backup carries it (receipts and fnr digests depend on it)`,
    )
  }
  const instance = running ? readInstanceFile(config.dataDir) : null
  if (instance && instance.server_secret_fingerprint !== secretFingerprint(secret)) {
    throw new CommandFailed(
      `the instance serving ${config.dataDir} signs with a different server secret than ${config.serverSecret ? 'SERVER_SECRET' : `${config.dataDir}/server-secret`}: run backup with the SERVER_SECRET it runs with`,
    )
  }
  return secret
}

/**
 * Written beside the target, exclusively, without following a symlink, readable by the owner only,
 * fsynced and renamed (lib/exclusive-file.ts): a half-written backup never carries the name, and the
 * database never lands where a planted link points.
 */
async function writeAtomically(file: string, blob: Blob): Promise<{ bytes: number; sha256: string }> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  writeFileExclusively(file, bytes)
  return { bytes: bytes.length, sha256: sha256Hex(bytes) }
}

function readSuppliedSecret(path: string): string {
  let secret: string
  try {
    secret = readFileSync(path, 'utf8').trim()
  } catch (e) {
    throw new UsageError(`--server-secret-file: ${(e as Error).message}`)
  }
  if (secret.length < 32)
    throw new UsageError(`--server-secret-file ${path} holds fewer than 32 characters: it is not a server secret`)
  return secret
}

const embeddedOnly = (config: Config, what: string) => {
  if (config.databaseUrl)
    throw new UsageError(
      `${what} is for the embedded database; with DATABASE_URL set, use PostgreSQL's own tools (pg_dump, pg_restore)`,
    )
}

/** A rotation's first instant: `now`, an RFC 3339 date-time, or (absent) ROTATION_LEAD_MS from now. */
function validFromOf(value: string | boolean | undefined, now: Date): Date {
  if (value === undefined) return new Date(now.getTime() + ROTATION_LEAD_MS)
  if (value === 'now') return now
  const at =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
      ? new Date(value)
      : null
  if (!at || Number.isNaN(at.getTime()))
    throw new UsageError(
      '--valid-from must be `now` or an RFC 3339 date-time with its offset, e.g. 2026-12-01T00:00:00Z',
    )
  return at
}

export const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: 'plikt migrate',
    summary: 'apply the database migrations and exit',
    help: 'Applies every migration this build carries that the database (DATABASE_URL, or the embedded one in DATA_DIR) lacks, under the same lock the service takes at start, and exits. Several instances starting at once are safe without it; it is for running migrations as a deploy step.',
    positionals: 0,
    async run(config) {
      const db = await openForCommand(config)
      try {
        const result = await migrate(db.sql, await loadMigrations(), (msg) => say(`warning: ${msg}`))
        say(
          result.applied.length
            ? `applied ${result.applied.join(', ')}`
            : `up to date (${result.skipped} migrations applied before)`,
        )
      } finally {
        await db.close()
      }
    },
  },
  backup: {
    usage: 'plikt backup <file>',
    summary: 'a consistent copy of the embedded database and the server secret, as a gzipped tarball',
    help: 'Copies the embedded database in DATA_DIR, with the server secret receipts and fnr digests depend on (SERVER_SECRET, else DATA_DIR/server-secret), to <file>: a gzipped tar of plikt-backup.json, server-secret and database.tar.gz, written as <file>.partial — created exclusively, never through a symlink, mode 0600, fsynced — and renamed when complete. Keep it as private as the secret. When an instance is serving DATA_DIR it holds the lock, and the copy is taken by that instance through its operator API (POST /api/v1/admin/backup with ADMIN_TOKEN), at the address it wrote into DATA_DIR/instance.json (else BASE_URL); otherwise the command opens the directory itself. The copy is of one instant. Restore it with `plikt restore <file>` into an empty DATA_DIR.',
    positionals: 1,
    async run(config, [file]) {
      embeddedOnly(config, 'backup')
      let db: Database | null = null
      try {
        db = await openEmbedded(config.dataDir)
      } catch (e) {
        if (!(e instanceof DatabaseLockedError)) throw e
      }
      let secret: string
      try {
        secret = secretToKeep(config, db === null)
      } catch (e) {
        await db?.close()
        throw e
      }
      const database = db ? await db.dumpDataDir!().finally(() => db!.close()) : await backupFromRunningInstance(config)
      const bytes = new Uint8Array(await database.arrayBuffer())
      const now = new Date()
      const archive = packBackup(
        {
          format: 'plikt-backup',
          version: 1,
          created_at: now.toISOString(),
          server_secret_fingerprint: secretFingerprint(secret),
          database_sha256: sha256Hex(bytes),
        },
        secret,
        bytes,
        now,
      )
      const written = await writeAtomically(file!, new Blob([archive]))
      say(`backup of ${config.dataDir} written to ${file}: ${written.bytes} bytes, sha256 ${written.sha256}`)
    },
  },
  restore: {
    usage: 'plikt restore <file> [--server-secret-file <file>]',
    summary: 'fill an empty DATA_DIR from a backup',
    help: "Loads a backup made by `plikt backup` into DATA_DIR, which must be empty (or not exist yet), and puts the backup's server secret into DATA_DIR/server-secret, so receipts and fnr digests made before still verify. Start the service on it afterwards; migrations newer than the backup are applied at start. A backup from before the secret was carried (a database only) is refused unless the secret is supplied: --server-secret-file <the old DATA_DIR/server-secret>, or SERVER_SECRET as the service ran with. SERVER_SECRET set to another secret than the backup's is refused.",
    options: { 'server-secret-file': { type: 'string' } },
    positionals: 1,
    async run(config, [file], values) {
      embeddedOnly(config, 'restore')
      const backup = Bun.file(file!)
      if (!(await backup.exists())) throw new UsageError(`no such file: ${file}`)
      let unpacked
      try {
        unpacked = unpackBackup(new Uint8Array(await backup.arrayBuffer()))
      } catch (e) {
        throw new CommandFailed(`${file} could not be read as a Plikt backup: ${(e as Error).message}`)
      }
      const supplied =
        typeof values['server-secret-file'] === 'string'
          ? readSuppliedSecret(values['server-secret-file'])
          : config.serverSecret
      let secret: string
      if (unpacked.kind === 'whole') {
        if (secretFingerprint(unpacked.secret) !== unpacked.manifest.server_secret_fingerprint)
          throw new CommandFailed(`${file} is damaged: its server-secret does not match its manifest`)
        if (supplied !== null && supplied !== unpacked.secret) {
          throw new CommandFailed(
            `${file} carries another server secret than the one supplied (${typeof values['server-secret-file'] === 'string' ? '--server-secret-file' : 'SERVER_SECRET'}): receipts and fnr digests in it verify only under its own; restore without supplying one`,
          )
        }
        secret = unpacked.secret
      } else {
        if (supplied === null) {
          throw new CommandFailed(
            `${file} holds the database but not the server secret (a backup made before backups carried it), and receipts and fnr digests in it verify only under that secret. ` +
              'Supply it: --server-secret-file <the DATA_DIR/server-secret of the instance it was taken from>, or SERVER_SECRET=<the SERVER_SECRET it ran with>. Nothing was restored.',
          )
        }
        secret = supplied
      }
      try {
        await restoreEmbedded(config.dataDir, new Blob([unpacked.database]))
      } catch (e) {
        if (e instanceof RestoreRefusedError || e instanceof DatabaseLockedError || e instanceof DataDirError)
          throw new CommandFailed(e.message)
        throw new CommandFailed(`${file} could not be loaded as a Plikt backup: ${(e as Error).message}`)
      }
      writeSecretFile(config.dataDir, secret)
      const db = await openEmbedded(config.dataDir)
      try {
        const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from schema_migrations`
        say(
          `restored ${file} into ${config.dataDir} (${row!.n} migrations recorded; server secret ${secretFingerprint(secret)} in ${config.dataDir}/server-secret)`,
        )
      } finally {
        await db.close()
      }
    },
  },
  export: {
    usage: 'plikt export --to postgres://…',
    summary: 'move the embedded database into an empty PostgreSQL database, and verify it',
    help: 'Copies every table of the embedded database in DATA_DIR into the PostgreSQL database named by --to, which must hold no tables: the schema is created by the migrations, the rows are copied parents first, identity sequences are moved past the copied ids, and then every table is compared — row count and a checksum over every row — so the audit log, the credit ledger and everything else arrive exactly. Stop the instance serving DATA_DIR first. Then start the service with DATABASE_URL set to the same address.',
    options: { to: { type: 'string' } },
    positionals: 0,
    async run(config, _positionals, values) {
      const to = values.to
      if (typeof to !== 'string' || !/^postgres(ql)?:\/\//.test(to))
        throw new UsageError('--to must name the target, postgres://user@host:5432/database')
      embeddedOnly(config, 'export')
      const source = await openForCommand(config)
      let target: Database | null = null
      try {
        target = await openPostgres(to, 2).catch((e: Error) => {
          throw new CommandFailed(`cannot connect to the target: ${e.message}`)
        })
        if (!(await isEmptyDatabase(target.sql)))
          throw new CommandFailed('the target database holds tables already: export fills an empty database only')
        const migrations = await loadMigrations()
        await migrate(source.sql, migrations)
        await migrate(target.sql, migrations)
        const tables = await tablesInDependencyOrder(source.sql)
        for (const t of tables) say(`copied ${t}: ${await copyTable(source.sql, target.sql, t)} rows`)
        await resetIdentities(target.sql)
        const differ: string[] = []
        for (const t of tables) {
          const [a, b] = [await tableSum(source.sql, t), await tableSum(target.sql, t)]
          const same = a.rows === b.rows && a.checksum === b.checksum
          if (!same) differ.push(t)
          say(
            `verified ${t}: ${a.rows} rows, md5 ${a.checksum}${same ? '' : ` — DIFFERS: target ${b.rows} rows, md5 ${b.checksum}`}`,
          )
        }
        if (differ.length) throw new CommandFailed(`verification failed for ${differ.join(', ')}`)
        say(
          `exported ${tables.length} tables; every row count and checksum matches. Start the service with DATABASE_URL=${to.replace(/:[^:@/]*@/, ':***@')}`,
        )
      } finally {
        await target?.close()
        await source.close()
      }
    },
  },
  'rotate-receipt-key': {
    usage: 'plikt rotate-receipt-key [--valid-from <date-time>|now]',
    summary: 'make a new Ed25519 receipt-signing key; the current one signs until it takes over',
    help: 'Generates a new Ed25519 key, seals its private half under the server secret (SERVER_SECRET, or the one in DATA_DIR) and stores it with the window it signs in: from --valid-from (default: ten minutes from now, so caches of /.well-known/receipt-keys.json — five minutes — hold it before its first receipt; `now` for a key you must retire at once). The current key signs until then and stays published with its window, so every receipt it signed keeps verifying. Instances pick the new key up by themselves. With the embedded database, stop the instance first (it holds DATA_DIR); with DATABASE_URL it runs beside the service.',
    options: { 'valid-from': { type: 'string' } },
    positionals: 0,
    async run(config, _positionals, values) {
      const now = new Date()
      const validFrom = validFromOf(values['valid-from'], now)
      const secret = config.serverSecret ?? secretFromDataDir(config.dataDir).secret
      const db = await openForCommand(config)
      try {
        await migrate(db.sql, await loadMigrations())
        const done = await rotateReceiptKeys(db.sql, serverKeys(secret).receiptEd25519, validFrom, now)
        if ('refused' in done) throw new CommandFailed(done.refused)
        say(
          `new receipt key ${done.kid} signs from ${done.valid_from.toISOString()}${done.retired ? `; ${done.retired} signs until then and stays published` : ''}`,
        )
      } finally {
        await db.close()
      }
    },
  },
  'archive-ledger': {
    usage: 'plikt archive-ledger <YYYY-MM> <file> [--delete]',
    summary: 'copy a closed month of the credit ledger to a file, verified; --delete then removes it from the database',
    help: 'Writes every row of a closed Oslo month of the credit ledger (`ledger-close` closes each month an hour after it ends) to <file>, gzipped JSON lines: a header with the month and the totals its close recorded (rows, sum, checksum), then one row per line, every column. The file is written as <file>.partial — created exclusively, never through a symlink, mode 0600, fsynced — and renamed when whole; the rows must add up to the recorded totals, and the file is read back and checked against them, or nothing happens. With --delete the month\'s rows then leave the database (rows a later refund or an approved top-up refers to stay), and the month is recorded as archived with the file\'s SHA-256: balances and the nightly check start from the closings and need none of them. With the embedded database, stop the instance first (it holds DATA_DIR); with DATABASE_URL it runs beside the service. docs/deploy.md "The ledger over time".',
    options: { delete: { type: 'boolean' } },
    positionals: 2,
    async run(config, [month, file], values) {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month!)) throw new UsageError('<month> must be YYYY-MM, e.g. 2026-01')
      if (existsSync(file!)) throw new UsageError(`${file} exists: archive-ledger writes a new file only`)
      const db = await openForCommand(config)
      try {
        await migrate(db.sql, await loadMigrations())
        const out = exclusiveWriter(file!)
        let header
        try {
          ;({ header } = await writeMonthArchive(db.sql, `${month}-01`, (lines) => out.write(gzipSync(lines))))
        } catch (e) {
          out.abandon()
          if (e instanceof LedgerArchiveRefused) throw new CommandFailed(e.message)
          throw e
        }
        out.finish()
        const back = await verifyMonthArchive(gzippedLines(file!))
        if (!back.whole || back.rows !== header.rows)
          throw new CommandFailed(
            `${file} does not read back whole (${back.rows} rows of ${header.rows}): nothing was deleted`,
          )
        const sha256 = await fileSha256(file!)
        say(
          `${month}: ${header.rows} rows, ${header.sum_ore} øre, written to ${file} and read back whole (sha256 ${sha256})`,
        )
        if (values.delete) {
          const deleted = await deleteArchivedMonth(db.sql, `${month}-01`, sha256).catch((e: unknown) => {
            throw e instanceof LedgerArchiveRefused ? new CommandFailed(e.message) : e
          })
          say(
            `${month}: ${deleted} rows deleted from the database${deleted < header.rows ? `, ${header.rows - deleted} kept (a later refund or a top-up refers to them)` : ''}; recorded as archived`,
          )
        }
      } finally {
        await db.close()
      }
    },
  },
}

/** The lines of a gzipped file (its members one after the other), read as a stream. */
function gzippedLines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Number.POSITIVE_INFINITY })
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length), 'plikt [serve]'.length)
  const line = (u: string, s: string) => `  ${u.padEnd(width)}  ${s}`
  return [
    'usage:',
    line('plikt [serve]', 'run the service (the default)'),
    ...Object.values(COMMANDS).map((c) => line(c.usage, c.summary)),
    '',
    '`plikt <command> --help` for each; configuration comes from the environment (README).',
  ].join('\n')
}

/** Runs a command; the exit code. */
export async function runCommand(name: string, args: string[]): Promise<number> {
  // own names only: `constructor` and the like are no command
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!command) {
    process.stderr.write(`plikt: unknown command "${name}"\n${usage()}\n`)
    return 2
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { help: { type: 'boolean', short: 'h' }, ...command.options },
      allowPositionals: true,
      strict: true,
    })
    if (values.help) {
      say(`usage: ${command.usage}\n\n${command.help}`)
      return 0
    }
    if (positionals.length !== command.positionals)
      throw new UsageError(
        `expects ${command.positionals === 0 ? 'no arguments' : `${command.positionals} argument`} (usage: ${command.usage})`,
      )
    await command.run(loadConfig(), positionals, values as Record<string, string | boolean | undefined>)
    return 0
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`plikt ${name}: ${(e as Error).message}\nusage: ${command.usage}   (--help for more)\n`)
      return 2
    }
    const known =
      e instanceof CommandFailed ||
      e instanceof ConfigError ||
      e instanceof MigrationError ||
      e instanceof DatabaseLockedError ||
      e instanceof DataDirError
    process.stderr.write(`plikt ${name}: ${known ? (e as Error).message : String((e as Error)?.stack ?? e)}\n`)
    return 1
  }
}
