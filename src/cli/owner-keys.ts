// `solopod keys add`: a new HttpSig key pair for the owner — public key document in the pod, private JWK in a 0600 file.

import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { HttpError } from '../http/errors.ts'
import { keyNameProblem } from '../auth/httpsig/owner-key-documents.ts'
import { ownerSessionPrincipal } from '../auth/owner-cookie.ts'
import { publishOwnerKey, type KeyWriting } from '../resources/owner-keys.ts'
import { UserError } from '../lib/user-error.ts'

export class KeyCommandError extends UserError {}

export interface NewOwnerKey {
  readonly keyUrl: string
  readonly webid: string
  readonly privateJwk: Record<string, unknown>
}

/**
 * Writes `/keys/<name>` and links it from the owner's profile through the operations layer, as the dashboard's
 * Keys page does; the one who runs the command holds the pod's data directory, so it acts as the owner.
 */
export async function addOwnerKey(w: KeyWriting, name: string): Promise<NewOwnerKey> {
  const badName = keyNameProblem(name)
  if (badName) throw new KeyCommandError(`--name: ${badName}`)
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  let key
  try {
    key = await publishOwnerKey(w, { principal: ownerSessionPrincipal(w.baseUrl) }, name, publicKey.export({ format: 'jwk' }), { linkFromProfile: true })
  } catch (err) {
    if (err instanceof HttpError && err.status < 500)
      throw new KeyCommandError(`${err.description.replace(/; choose another name$/, '; choose another --name')}`)
    throw err
  }
  const priv = privateKey.export({ format: 'jwk' })
  return { keyUrl: key.keyUrl, webid: key.webid, privateJwk: { ...key.publicJwk, d: priv.d, kid: key.keyUrl } }
}

/** The private key leaves the process only into a new file only its owner can read (mode 0600). */
export function writePrivateJwk(file: string, jwk: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  try {
    writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new KeyCommandError(`${file} already exists; it is never overwritten (choose another --out)`)
    throw err
  }
}
