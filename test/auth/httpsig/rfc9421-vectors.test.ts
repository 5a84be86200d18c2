// RFC 9421 Appendix B: the signature base builder and the algorithms against the RFC's own test material.

import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { parseDictionary, type InnerList } from 'structured-headers'
import { buildSignatureBase } from '../../../src/auth/httpsig/signature-base.ts'
import { importPublicJwk, verifySignatureBytes, type PublicJwk, type SignatureAlg } from '../../../src/auth/httpsig/algorithms.ts'

// B.1.2–B.1.4 public keys.
const RSA_PSS: PublicJwk = {
  kty: 'RSA',
  e: 'AQAB',
  n: 'r4tmm3r20Wd_PbqvP1s2-QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct-Lh1GH45x28Rw3Ry53mm-oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHqgDsznjPFmTOtCEcN2Z1FpWgchwuYLPL-Wokqltd11nqqzi-bJ9cvSKADYdUAAN5WUtzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4aOT9v6d-nb4bnNkQVklLQ3fVAvJm-xdDOp9LCNCN48V2pnDOkFV6-U9nV5oyc6XI2w',
}
const ECC_P256: PublicJwk = { kty: 'EC', crv: 'P-256', x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA', y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0' }
const ED25519: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }

// B.2 test-request, as the pod would see it.
const TEST_REQUEST = {
  method: 'POST',
  targetUri: 'https://example.com/foo?param=Value&Pet=dog',
  headers: new Headers({
    host: 'example.com',
    date: 'Tue, 20 Apr 2021 02:07:55 GMT',
    'content-type': 'application/json',
    'content-digest': 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    'content-length': '18',
  }),
}

interface Vector {
  readonly name: string
  readonly alg: SignatureAlg
  readonly key: PublicJwk
  readonly signatureInput: string
  readonly signature: string
  readonly base: string
  readonly sha256?: string
}

const VECTORS: Vector[] = [
  {
    name: 'B.2.6 ed25519',
    alg: 'ed25519',
    key: ED25519,
    signatureInput: 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    signature: 'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:',
    base: [
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@authority": example.com',
      '"content-type": application/json',
      '"content-length": 18',
      '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    ].join('\n'),
    sha256: 'e6402577f54303accfda63dfbde1a7b8c5e5e6f3f7898637b7d78dc07ee1896a',
  },
  {
    name: '§4.3 ecdsa-p256-sha256 client signature',
    alg: 'ecdsa-p256-sha256',
    key: ECC_P256,
    signatureInput: 'sig1=("@method" "@authority" "@path" "content-digest" "content-type" "content-length");created=1618884475;keyid="test-key-ecc-p256"',
    signature: 'sig1=:X5spyd6CFnAG5QnDyHfqoSNICd+BUP4LYMz2Q0JXlb//4Ijpzp+kve2w4NIyqeAuM7jTDX+sNalzA8ESSaHD3A==:',
    base: [
      '"@method": POST',
      '"@authority": example.com',
      '"@path": /foo',
      '"content-digest": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
      '"content-type": application/json',
      '"content-length": 18',
      '"@signature-params": ("@method" "@authority" "@path" "content-digest" "content-type" "content-length");created=1618884475;keyid="test-key-ecc-p256"',
    ].join('\n'),
    sha256: '23177ab179858877a1e0a236f9b1ac358d27700b607473ff8456c211c9db431b',
  },
  {
    name: 'B.2.1 rsa-pss-sha512 minimal',
    alg: 'rsa-pss-sha512',
    key: RSA_PSS,
    signatureInput: 'sig-b21=();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"',
    signature:
      'sig-b21=:d2pmTvmbncD3xQm8E9ZV2828BjQWGgiwAaw5bAkgibUopemLJcWDy/lkbbHAve4cRAtx31Iq786U7it++wgGxbtRxf8Udx7zFZsckzXaJMkA7ChG52eSkFxykJeNqsrWH5S+oxNFlD4dzVuwe8DhTSja8xxbR/Z2cOGdCbzR72rgFWhzx2VjBqJzsPLMIQKhO4DGezXehhWwE56YCE+O6c0mKZsfxVrogUvA4HELjVKWmAvtl6UnCh8jYzuVG5WSb/QEVPnP5TmcAnLH1g+s++v6d4s8m0gCw1fV5/SITLq9mhho8K3+7EPYTU8IU1bLhdxO5Nyt8C8ssinQ98Xw9Q==:',
    base: '"@signature-params": ();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"',
  },
]

const only = (field: string) => [...parseDictionary(field).values()][0]!

describe('RFC 9421 Appendix B', () => {
  describe.each(VECTORS)('$name', v => {
    const input = only(v.signatureInput) as InnerList
    const signature = new Uint8Array(only(v.signature)[0] as ArrayBuffer)
    const base = buildSignatureBase(TEST_REQUEST, input)

    test('the signature base is byte-exact', () => {
      expect(base).toBe(v.base)
      if (v.sha256) expect(createHash('sha256').update(base).digest('hex')).toBe(v.sha256)
    })
    test('the published signature verifies', () => {
      expect(verifySignatureBytes(v.alg, importPublicJwk(v.key), new TextEncoder().encode(base), signature)).toBe(true)
    })
    test('a one-byte change of the base fails', () => {
      const bytes = new TextEncoder().encode(base)
      bytes[bytes.length - 2]! ^= 1
      expect(verifySignatureBytes(v.alg, importPublicJwk(v.key), bytes, signature)).toBe(false)
    })
    test('a one-byte change of the signature fails', () => {
      const bad = signature.slice()
      bad[10]! ^= 1
      expect(verifySignatureBytes(v.alg, importPublicJwk(v.key), new TextEncoder().encode(base), bad)).toBe(false)
    })
  })
})
