export {}
/**
 * `npm test`: runs `bun test` and ends with the one line CI reads, `N passed, N failed`
 * (bun test prints its own summary in another form).
 */
const args = process.argv.slice(2)
// A fresh embedded database (initdb) can take several seconds on a busy 2-core machine: allow 30 s per test.
const proc = Bun.spawn(['bun', 'test', '--timeout', '30000', ...args], {
  stdout: 'inherit',
  stderr: 'pipe',
  env: process.env,
})
let tail = ''
const decoder = new TextDecoder()
for await (const chunk of proc.stderr) {
  process.stderr.write(chunk)
  tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4000)
}
const code = await proc.exited
const passed = Number(/^\s*(\d+) pass\s*$/m.exec(tail)?.[1] ?? 0)
const failed = Number(/^\s*(\d+) fail\s*$/m.exec(tail)?.[1] ?? 0)
const errored = code !== 0 && failed === 0 ? 1 : 0
console.log(`${passed} passed, ${failed + errored} failed`)
process.exit(code)
