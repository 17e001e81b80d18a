/**
 * `npm run build`: one self-contained executable at dist/plikt (or the path given as argument). PGlite's runtime and the docs UI
 * are embedded through file imports; the migrations are embedded as extra files and read through
 * Bun.embeddedFiles (see src/store/migrate.ts). The code is shipped as bytecode, so a start skips
 * parsing it (restart to healthy: see bench/RESULTS.md).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const migrations = readdirSync(join(root, 'sql'))
  .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
  .map((f) => join(root, 'sql', f))

const outfile = process.argv[2] ?? join(root, 'dist/plikt')
const args = [
  'build',
  '--compile',
  '--minify-syntax',
  '--bytecode',
  '--format=esm',
  '--sourcemap=none',
  join(root, 'src/main.ts'),
  ...migrations,
  '--asset-naming=[name].[ext]',
  '--outfile',
  outfile,
]
const proc = Bun.spawn(['bun', ...args], { stdout: 'inherit', stderr: 'inherit', cwd: root })
const code = await proc.exited
if (code === 0) console.log(`built ${outfile} (${migrations.length} migrations embedded)`)
process.exit(code)
