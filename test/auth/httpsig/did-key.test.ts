// did-method-key decoding: the published vectors and the RFC 9421 test keys.

import { describe, expect, test } from 'bun:test'
import { didKeyToJwk } from '../../../src/auth/httpsig/did-key.ts'
import { HttpError } from '../../../src/http/errors.ts'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let out = ''
  for (; n > 0n; n /= 58n) out = ALPHABET[Number(n % 58n)] + out
  return out
}
const shortEd25519 = `did:key:z${base58(Uint8Array.from([0xed, 0x01, ...new Array(31).fill(7)]))}`
const offCurveP256 = `did:key:z${base58(Uint8Array.from([0x80, 0x24, 0x02, ...new Array(32).fill(0xff)]))}`

describe('did:key (W3C CCG did-method-key)', () => {
  test('P-256: zDnaerx9… decodes to the published x and y', () => {
    expect(didKeyToJwk('did:key:zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv')).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      x: 'igrFmi0whuihKnj9R3Om1SoMph72wUGeFaBbzG2vzns',
      y: 'efsX5b10x8yjyrj4ny3pGfLcY7Xby1KzgqOdqnsrJIM',
    })
  })
  test('Ed25519: the RFC 9421 test key', () => {
    expect(didKeyToJwk('did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG')).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
    })
  })
  test('P-256: the RFC 9421 test key, with its verification-method fragment', () => {
    const id = 'zDnaeu17qkMASJ85C3awZDjW4u1HT48SN1QbKFJ6Yhr8LXdV9'
    expect(didKeyToJwk(`did:key:${id}#${id}`)).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA',
      y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0',
    })
  })
  test.each([
    ['not base58btc multibase', 'did:key:mABC', 'start with "z"'],
    ['a character outside base58', 'did:key:z0OIl', 'not valid base58btc'],
    ['an unsupported multicodec (X25519)', 'did:key:z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc', 'does not support'],
    ['a wrong key length', shortEd25519, 'invalidPublicKeyLength'],
    ['a point not on the curve', offCurveP256, 'invalidPublicKey)'],
  ])('%s → 401', (_what, did, reason) => {
    let error: unknown
    try {
      didKeyToJwk(did)
    } catch (e) {
      error = e
    }
    expect((error as HttpError).status).toBe(401)
    expect((error as HttpError).description).toContain(reason)
  })
})

describe('did:key P-384', () => {
  test('a compressed P-384 key decodes to the same point', async () => {
    const { generateKeyPairSync, ECDH } = await import('node:crypto')
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' })
    const uncompressed = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')])
    const compressed = ECDH.convertKey(uncompressed, 'secp384r1', undefined, undefined, 'compressed') as Buffer
    const did = `did:key:z${base58(Uint8Array.from([0x81, 0x24, ...compressed]))}`
    expect(did).toStartWith('did:key:z82')
    expect(didKeyToJwk(did)).toMatchObject({ kty: 'EC', crv: 'P-384', x: jwk.x, y: jwk.y })
  })
})
