// --tls-cert and --tls-key checked before anything starts: a file that is missing, unreadable, not PEM, or a key
// that does not belong to the certificate is a sentence naming the file and what to do — not BoringSSL's
// `error:0900006e:PEM routines:OPENSSL_internal:NO_START_LINE` after the store was opened.

import { readFileSync } from 'node:fs'
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto'
import { UserError } from '../lib/user-error.ts'

export class TlsFilesError extends UserError {}

function readPem(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read by this user' : code === 'EISDIR' ? 'is a directory' : 'cannot be read'
    throw new TlsFilesError(`${flag} ${file} ${why}: give the path of a PEM file this user may read`)
  }
}

/** Throws a TlsFilesError unless `certFile` holds a PEM certificate and `keyFile` its private key. */
export function checkTlsFiles(certFile: string, keyFile: string): void {
  const certPem = readPem(certFile, '--tls-cert')
  const keyPem = readPem(keyFile, '--tls-key')
  let cert: X509Certificate
  try {
    cert = new X509Certificate(certPem)
  } catch {
    throw new TlsFilesError(`--tls-cert ${certFile} holds no PEM certificate (a file starting with -----BEGIN CERTIFICATE-----)`)
  }
  let key: KeyObject
  try {
    key = createPrivateKey(keyPem)
  } catch {
    throw new TlsFilesError(`--tls-key ${keyFile} holds no unencrypted PEM private key (a file starting with -----BEGIN PRIVATE KEY----- or similar)`)
  }
  if (!cert.checkPrivateKey(key))
    throw new TlsFilesError(`--tls-key ${keyFile} is not the key of the certificate in --tls-cert ${certFile}: give the key the certificate was made for`)
}
