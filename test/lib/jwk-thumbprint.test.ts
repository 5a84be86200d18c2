import { describe, expect, test } from 'bun:test'
import { exportJWK, generateKeyPair } from 'jose'
import { jwkThumbprint } from '../../src/lib/jwk-thumbprint.ts'

const EC = { crv: 'P-256', kty: 'EC', x: 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs', y: '9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA' }
const RSA = {
  kty: 'RSA',
  e: 'AQAB',
  n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
}
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }

describe('RFC 7638 §3 (RFC 8037 §2 for OKP): SHA-256 JWK thumbprint', () => {
  test('matches the RFC 9449 example EC key (jkt of the example proofs)', async () => {
    expect(await jwkThumbprint(EC)).toBe('0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I')
  })
  test('matches the RFC 7638 §3.1 RSA example', async () => {
    expect(await jwkThumbprint(RSA)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')
  })
  test('matches the RFC 8037 Appendix A.3 Ed25519 example', async () => {
    expect(await jwkThumbprint(ED25519)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
  })
  test('matches the computed thumbprint of RFC 9421 test-key-ecc-p256', async () => {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      kid: 'test-key-ecc-p256',
      x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA',
      y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0',
    }
    expect(await jwkThumbprint(jwk)).toBe('ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI')
  })
  test('matches the computed thumbprint of RFC 9421 test-key-ed25519', async () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', kid: 'test-key-ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }
    expect(await jwkThumbprint(jwk)).toBe('poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U')
  })
  test('ignores kid, alg, use and key_ops (only the required members count)', async () => {
    expect(await jwkThumbprint({ ...EC, kid: 'k1', alg: 'ES256', use: 'sig', key_ops: ['verify'] })).toBe('0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I')
  })
  test('does not depend on member order', async () => {
    const reordered = { y: EC.y, x: EC.x, kty: EC.kty, crv: EC.crv }
    expect(await jwkThumbprint(reordered)).toBe(await jwkThumbprint(EC))
  })
  test('is the same for a private key and its public part', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true })
    expect(await jwkThumbprint(await exportJWK(pair.privateKey))).toBe(await jwkThumbprint(await exportJWK(pair.publicKey)))
  })
  test('differs between keys', async () => {
    const [a, b] = await Promise.all([generateKeyPair('ES256', { extractable: true }), generateKeyPair('ES256', { extractable: true })])
    expect(await jwkThumbprint(await exportJWK(a.publicKey))).not.toBe(await jwkThumbprint(await exportJWK(b.publicKey)))
  })
  test('rejects a JWK without its required members', async () => {
    await expect(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: EC.x })).rejects.toThrow()
  })
})
