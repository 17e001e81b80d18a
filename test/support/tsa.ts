/**
 * A real RFC 3161 time-stamping authority for tests: `openssl ts -reply` behind a small HTTP
 * server, with a CA and a TSA certificate made for it in a temporary directory. `verify` checks a
 * token the way a third party would (`openssl ts -verify`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface LocalTsa {
  url: string
  /** requests answered */
  served: number
  /** answer 503 instead of stamping */
  down: boolean
  /** `openssl ts -verify` of a DER token over this SHA-256 (hex); true on `Verification: OK` */
  verify(tokenDer: Buffer, sha256Hex: string): boolean
  stop(): void
}

export const hasOpenssl = Bun.spawnSync(['sh', '-c', 'command -v openssl']).exitCode === 0

function run(args: string[], cwd: string): string {
  const out = Bun.spawnSync(['openssl', ...args], { cwd })
  if (out.exitCode !== 0) throw new Error(`openssl ${args[0]}: ${out.stderr.toString()}`)
  return out.stdout.toString()
}

export function startLocalTsa(): LocalTsa {
  const dir = mkdtempSync(join(tmpdir(), 'plikt-tsa-'))
  writeFileSync(
    join(dir, 'tsa-ext.cnf'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n',
  )
  writeFileSync(join(dir, 'ca-ext.cnf'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n')
  run(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-subj',
      '/CN=Plikt test TSA CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  )
  run(
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'tsa.key',
      '-out',
      'tsa.csr',
      '-subj',
      '/CN=Plikt test TSA',
    ],
    dir,
  )
  run(
    [
      'x509',
      '-req',
      '-in',
      'tsa.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      'tsa.pem',
      '-extfile',
      'tsa-ext.cnf',
    ],
    dir,
  )
  writeFileSync(join(dir, 'tsaserial'), '01\n')
  writeFileSync(
    join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem',
      'certs = $dir/ca.pem',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  )
  let n = 0
  const tsa = {
    served: 0,
    down: false,
    url: '',
    verify(token: Buffer, sha256Hex: string) {
      const file = join(dir, `check-${n++}.tst`)
      writeFileSync(file, token)
      const out = Bun.spawnSync(
        [
          'openssl',
          'ts',
          '-verify',
          '-digest',
          sha256Hex,
          '-in',
          file,
          '-token_in',
          '-CAfile',
          join(dir, 'ca.pem'),
          '-untrusted',
          join(dir, 'tsa.pem'),
        ],
        { cwd: dir },
      )
      return out.exitCode === 0 && out.stdout.toString().includes('Verification: OK')
    },
    stop() {
      server.stop(true)
      rmSync(dir, { recursive: true, force: true })
    },
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      if (tsa.down) return new Response('down', { status: 503 })
      const i = n++
      writeFileSync(join(dir, `q-${i}.tsq`), new Uint8Array(await req.arrayBuffer()))
      run(['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', `q-${i}.tsq`, '-out', `r-${i}.tsr`], dir)
      tsa.served++
      return new Response(readFileSync(join(dir, `r-${i}.tsr`)), {
        headers: { 'content-type': 'application/timestamp-reply' },
      })
    },
  })
  tsa.url = `http://127.0.0.1:${server.port}/tsa`
  return tsa
}
