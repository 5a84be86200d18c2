// Issue 41: what a DPoP GET can reach at best on this machine: a public GET plus one ES256 verification per request.

import { generateKeyPairSync, sign, verify } from 'node:crypto'

export interface VerifyRates {
  /** node:crypto `verify`, one after the other on this thread (what the pod does per proof), each a different signature. */
  readonly nodeCrypto: number
  /** WebCrypto `subtle.verify`, each awaited before the next: one core's worth too. */
  readonly webCrypto: number
  /**
   * node:crypto verifying one signature over and over: how the bound was measured before. ECDSA verification is
   * not constant-time, and repeating one input lets the CPU learn its branches (measured ~10 % faster than
   * different signatures), while every DPoP request brings a new one. Printed beside the bound, not used in it.
   */
  readonly nodeCryptoOneSignature: number
}

/** Different signatures verified in turn, as proofs arrive: enough that no branch pattern repeats soon. */
const SIGNATURES = 1024

/** The bytes a proof signs (header.payload of a DPoP proof with its jwk and ath): ~600 characters. */
const SIGNED = Buffer.from('x'.repeat(600))

/**
 * ES256 verifications per second, one at a time, measured in the bench process for `ms` per API. Both
 * are single-core rates: the pod verifies each proof on its one JS thread, and a rate of verifications
 * spread over threads would not bound what that thread does.
 */
export async function measureVerifyRates(ms = 1000): Promise<VerifyRates> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const signatures = Array.from({ length: SIGNATURES }, () => sign('sha256', SIGNED, { key: privateKey, dsaEncoding: 'ieee-p1363' }))
  const signature = signatures[0]!
  const webKey = await crypto.subtle.importKey('jwk', publicKey.export({ format: 'jwk' }) as JsonWebKey, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'verify',
  ])
  const rate = async (one: (i: number) => boolean | Promise<boolean>) => {
    for (let i = 0; i < 200; i++) if (!(await one(i))) throw new Error('the ES256 signature did not verify')
    let n = 0
    const started = performance.now()
    while (performance.now() - started < ms) {
      await one(n)
      n++
    }
    return n / ((performance.now() - started) / 1000)
  }
  return {
    nodeCrypto: await rate(i => verify('sha256', SIGNED, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signatures[i % SIGNATURES]!)),
    webCrypto: await rate(i => crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, webKey, signatures[i % SIGNATURES]!, SIGNED)),
    nodeCryptoOneSignature: await rate(() => verify('sha256', SIGNED, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)),
  }
}

/**
 * The signature-check bound: a request that costs a public GET plus one verification (at the faster
 * API's rate) gets 1 / (1/public + 1/verify) per second. The access token's verification is cached,
 * so the proof's is the only signature a repeated DPoP request needs.
 */
export function signatureBound(publicGetRps: number, rates: Pick<VerifyRates, 'nodeCrypto' | 'webCrypto'>): number {
  return 1 / (1 / publicGetRps + 1 / Math.max(rates.nodeCrypto, rates.webCrypto))
}

/** The report's line: the DPoP GET against its bound, with what the bound was made of. */
export function formatSignatureBound(dpopRps: number, publicGetRps: number, rates: VerifyRates, aim: number): string {
  const bound = signatureBound(publicGetRps, rates)
  const ratio = dpopRps / bound
  return (
    `DPoP GET / signature-check bound: ${ratio.toFixed(2)} (aim ≥ ${aim}: ${ratio >= aim ? 'met' : 'not met'}); ` +
    `bound ${bound.toFixed(0)} req/s = 1/(1/${publicGetRps.toFixed(0)} public GET + 1/${Math.max(rates.nodeCrypto, rates.webCrypto).toFixed(0)} ES256 verifications), ` +
    `verifications/s one at a time, each a different signature: node:crypto ${rates.nodeCrypto.toFixed(0)}, WebCrypto ${rates.webCrypto.toFixed(0)}; ` +
    `as measured before (one signature repeated, node:crypto ${rates.nodeCryptoOneSignature.toFixed(0)}/s): ` +
    `ratio ${(dpopRps / signatureBound(publicGetRps, { nodeCrypto: rates.nodeCryptoOneSignature, webCrypto: rates.webCrypto })).toFixed(2)}`
  )
}
