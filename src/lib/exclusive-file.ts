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

export function writeFileExclusively(file: string, bytes: Uint8Array): void {
  const partial = `${file}.partial`
  const fd = createExclusive(partial)
  try {
    fchmodSync(fd, 0o600)
    let off = 0
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off)
    fsyncSync(fd)
  } catch (e) {
    closeSync(fd)
    unlinkSync(partial)
    throw e
  }
  closeSync(fd)
  renameSync(partial, file)
  const dir = openSync(dirname(file), constants.O_RDONLY)
  try {
    fsyncSync(dir)
  } finally {
    closeSync(dir)
  }
}
