// The command line speaks sentences (issue 40): a data directory it cannot use, a bad certificate file, an unknown
// flag — one line on stderr saying what is wrong and what to do, exit code 2, no stack trace, no raw errno.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSolopod } from './start-server.ts'
import { makeLocalhostCertificate } from './tls-cert.ts'

const dir = mkdtempSync(join(tmpdir(), 'cli-sentences-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const serve = (...args: string[]) => runSolopod('serve', '--port', '0', '--base-url', 'http://localhost:3999/', ...args)

/** One line, `solopod: …`, nothing a person cannot read. */
function expectOneSentence(r: { code: number; stdout: string; stderr: string }, saying: string) {
  expect(r.code).toBe(2)
  const lines = r.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toStartWith('solopod: ')
  expect(lines[0]).toContain(saying)
  // the pod's own words, not the test's scratch paths: a random folder name such as `cli-sentences-ETJFXU` reads as an errno
  expect(r.stderr.replaceAll(dir, '<scratch>')).not.toMatch(/\bE[A-Z]{3,}\b|Error:|    at |OPENSSL_internal/)
}

describe('the data directory', () => {
  test('a path that goes through a file: exit 2 and a sentence', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, 'x')
    expectOneSentence(await serve('--data', join(file, 'data')), 'goes through a file, not a directory')
  })

  test('a file given as the data directory: exit 2 and a sentence', async () => {
    const file = join(dir, 'not-a-dir')
    writeFileSync(file, 'x')
    expectOneSentence(await serve('--data', file), `${file} exists and is not a directory`)
  })
})

describe('--tls-cert and --tls-key', () => {
  const certDir = join(dir, 'certs')
  mkdirSync(certDir)
  const cert = makeLocalhostCertificate(certDir)
  const other = makeLocalhostCertificate(mkdtempSync(join(dir, 'other-')))
  const notPem = join(dir, 'not.pem')
  writeFileSync(notPem, 'this is not a certificate\n')
  const data = () => mkdtempSync(join(dir, 'data-'))

  test('a certificate file that does not exist', async () => {
    expectOneSentence(await serve('--data', data(), '--tls-cert', join(dir, 'missing.pem'), '--tls-key', cert.key), '--tls-cert')
  })

  test('a certificate file that is not PEM', async () => {
    expectOneSentence(await serve('--data', data(), '--tls-cert', notPem, '--tls-key', cert.key), 'holds no PEM certificate')
  })

  test('a key file that is not a key', async () => {
    expectOneSentence(await serve('--data', data(), '--tls-cert', cert.cert, '--tls-key', notPem), 'holds no unencrypted PEM private key')
  })

  test("a key that is not the certificate's", async () => {
    expectOneSentence(await serve('--data', data(), '--tls-cert', cert.cert, '--tls-key', other.key), 'is not the key of the certificate')
  })
})

test('an unknown flag: exit 2 and a sentence', async () => {
  expectOneSentence(await runSolopod('serve', '--bogus'), 'unknown flag --bogus')
})
