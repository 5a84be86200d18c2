// Every WWW-Authenticate challenge the pod sends (RFC 9110 §11.6.1): DPoP, Bearer, UMA and HttpSig, built one way.

import { ASYMMETRIC_JWS_ALGS } from './dpop.ts'

/** RFC 9449 §7.1 `algs`: the proof algorithms we accept, ES256 first. */
export const DPOP_ALGS = ASYMMETRIC_JWS_ALGS.join(' ')

/**
 * RFC 9110 §11.2 quoted-string, narrowed by RFC 6750 §3 for error_description to %x20-21 / %x23-5B / %x5D-7E:
 * our descriptions quote values with `"`, so that becomes `'`, a backslash `/`, anything else outside the range `-`
 * (replaced, never escaped: clients differ in how they read quoted-pairs).
 */
const quotable = (s: string) =>
  s
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x7e]/g, '-')

/** `scheme name="value", …`; parameters without a value are left out. */
function challenge(scheme: string, params: readonly (readonly [string, string | undefined])[]): string {
  const given = params.filter((p): p is readonly [string, string] => p[1] !== undefined)
  return given.length === 0 ? scheme : `${scheme} ${given.map(([name, value]) => `${name}="${quotable(value)}"`).join(', ')}`
}

/** A refusal's reason in a challenge (RFC 6750 §3: `error`, `error_description`). */
export interface ChallengeError {
  readonly code: string
  readonly description?: string
}

const errorParams = (e?: ChallengeError) =>
  [
    ['error', e?.code],
    ['error_description', e?.description],
  ] as const

/** RFC 9449 §7.1: DPoP, with the reason of a refused request when there is one. */
export const dpopChallenge = (e?: ChallengeError) => challenge('DPoP', [...errorParams(e), ['algs', DPOP_ALGS]])

/** RFC 6750 §3: Bearer, for our UMA access tokens. */
export const bearerChallenge = (e: ChallengeError) => challenge('Bearer', errorParams(e))

/** UMA Grant §3.2: `as_uri` is our issuer, byte for byte the `issuer` of /.well-known/uma2-configuration. */
export const umaChallenge = (baseUrl: string, ticket: string) =>
  challenge('UMA', [
    ['realm', baseUrl],
    ['as_uri', baseUrl],
    ['ticket', ticket],
  ])

/** The HttpSig draft: its realm is the requested path. */
export const httpSigChallenge = (realm: string, e?: ChallengeError) => challenge('HttpSig', [['realm', realm], ...errorParams(e)])

/** RFC 7617 §2: Basic for a mounted drive (WebDAV), whose password is a client credential's secret; UTF-8 (§2.1). */
export const basicChallenge = () =>
  challenge('Basic', [
    ['realm', 'solopod'],
    ['charset', 'UTF-8'],
  ])
