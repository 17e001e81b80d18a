/**
 * Writing a file that must be whole and private (a backup holds the whole database): written to
 * `<file>.partial`, created exclusively and without following a symlink (O_EXCL | O_NOFOLLOW), mode
 * 0600, fsynced, then renamed over the name and the directory fsynced. A half-written file never
 * carries the name, and nothing planted at the `.partial` name is written through. A `.partial`
 * left by a process that died is removed first (unlinking a symlink removes the link, not its
 * target); if something takes the name again before the exclusive create, the write refuses.
 */
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

const FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

function createExclusive(path: string): number {
  try {
    return openSync(path, FLAGS, 0o600)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    unlinkSync(path)
    return openSync(path, FLAGS, 0o600)
  }
}

/**
 * A file written piece by piece under the same rules: `write` appends, `finish` fsyncs and gives it
 * its name, `abandon` removes the partial file.
 */
export function exclusiveWriter(file: string): { write(bytes: Uint8Array): void; finish(): void; abandon(): void } {
  const partial = `${file}.partial`
  const fd = createExclusive(partial)
  let open = true
  const close = () => {
    if (open) closeSync(fd)
    open = false
  }
  try {
    fchmodSync(fd, 0o600)
  } catch (e) {
    close()
    unlinkSync(partial)
    throw e
  }
  return {
    write(bytes) {
      let off = 0
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off)
    },
    finish() {
      fsyncSync(fd)
      close()
      renameSync(partial, file)
      const dir = openSync(dirname(file), constants.O_RDONLY)
      try {
        fsyncSync(dir)
      } finally {
        closeSync(dir)
      }
    },
    abandon() {
      close()
      unlinkSync(partial)
    },
  }
}

export function writeFileExclusively(file: string, bytes: Uint8Array): void {
  const out = exclusiveWriter(file)
  try {
    out.write(bytes)
  } catch (e) {
    out.abandon()
    throw e
  }
  out.finish()
}
