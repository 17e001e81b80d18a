import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseLockedError, openEmbedded } from '../../src/store/db.ts'

const dir = mkdtempSync(join(tmpdir(), 'plikt-db-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the embedded database keeps its data under DATA_DIR across restarts', async () => {
  const first = await openEmbedded(dir)
  await first.sql`create table kept (v text)`
  await first.sql`insert into kept values ('still here')`
  await first.close()
  const second = await openEmbedded(dir)
  expect((await second.sql`select v from kept`)[0]!.v).toBe('still here')
  await second.close()
})

test('a second opener of the same DATA_DIR gets a clear error while the first holds it', async () => {
  const held = await openEmbedded(dir)
  try {
    expect(readFileSync(join(dir, 'plikt.lock'), 'utf8')).toBe(String(process.pid))
    await expect(openEmbedded(dir)).rejects.toThrow(DatabaseLockedError)
    await expect(openEmbedded(dir)).rejects.toThrow(/in use by another Plikt process/)
  } finally {
    await held.close()
  }
})

test('a lock left by a dead process is taken over', async () => {
  // pid 2^22 - 1 is above Linux's default pid_max, so no live process has it.
  writeFileSync(join(dir, 'plikt.lock'), '4194303')
  const db = await openEmbedded(dir)
  expect(readFileSync(join(dir, 'plikt.lock'), 'utf8')).toBe(String(process.pid))
  await db.close()
})

test('closing releases the lock', async () => {
  const db = await openEmbedded(dir)
  await db.close()
  expect(() => readFileSync(join(dir, 'plikt.lock'))).toThrow()
})

test('concurrent queries and transactions on the one embedded connection do not interleave', async () => {
  const db = await openEmbedded(null)
  try {
    await db.sql`create table counter (n int not null)`
    await db.sql`insert into counter values (0)`
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.sql.begin(async (tx) => {
          const [row] = await tx`select n from counter`
          await tx`update counter set n = ${row!.n + 1}`
        }),
      ),
    )
    expect((await db.sql`select n from counter`)[0]!.n).toBe(20)
  } finally {
    await db.close()
  }
})
