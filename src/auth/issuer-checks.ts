// Checks every token from a Solid-OIDC issuer needs, whatever carries it: access token at the RS, ID token at the AS.

import { compactVerify, createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey, type ProtectedHeaderParameters } from 'jose'
import { HttpError } from '../http/errors.ts'
import { show } from '../lib/text.ts'
import { isBudgetRefusal } from '../fetch/fetch-budget.ts'
import type { WebId } from '../account/ids.ts'

/** A JWKS document, or a resolver over one (e.g. jose's `createLocalJWKSet`). */
export type IssuerKeys = JSONWebKeySet | JWTVerifyGetKey

/** The issuer's JWKS (OP discovery → jwks_uri); throws an HttpError when it cannot be read. */
export type GetIssuerKeys = (iss: string) => Promise<IssuerKeys>
/** The WebID profile's `solid:oidcIssuer` objects (Solid-OIDC §8.1). */
export type GetWebIdIssuers = (webid: WebId) => Promise<readonly string[]>

/** Builds the caller's error: 401 invalid_token at the RS, 403 need_info at the UMA AS. */
export type Fail = (description: string, cause?: unknown) => HttpError

/** Solid-OIDC §8.3 (as deployed verifiers apply it): https, or http when the host is exactly `localhost`. */
export function isSecureOrLocalhost(value: string): boolean {
  if (!URL.canParse(value)) return false
  const u = new URL(value)
  return u.protocol === 'https:' || (u.protocol === 'http:' && u.hostname === 'localhost')
}

/** Solid-OIDC §8.1: `iss` is one of the WebID's `solid:oidcIssuer` values, by exact string equality. */
export async function checkWebIdIssuer(webid: string, iss: string, getWebIdIssuers: GetWebIdIssuers, fail: Fail): Promise<void> {
  const issuers = await getWebIdIssuers(webid as WebId).catch((cause: unknown) => {
    throw passBudget(cause) ?? fail(`the WebID profile ${show(webid)} could not be read${reason(cause)}`, cause)
  })
  if (!issuers.includes(iss))
    throw fail(
      `iss ${show(iss)} is not a solid:oidcIssuer of ${show(webid)}; the profile lists ${issuers.length > 0 ? issuers.slice(0, 5).map(show).join(', ') : 'none'}`,
    )
}

/** The signature against the issuer's JWKS, asymmetric algorithms only (RFC 8725 §3.1); `what` names the token in errors. */
export async function checkIssuerSignature(
  token: string,
  header: ProtectedHeaderParameters,
  iss: string,
  o: {
    readonly getIssuerKeys: GetIssuerKeys
    readonly algorithms: readonly string[]
    readonly what: string
    readonly fail: Fail
  },
): Promise<void> {
  const { fail } = o
  const alg = header.alg
  if (typeof alg !== 'string' || !o.algorithms.includes(alg))
    throw fail(`alg ${show(alg)} is not accepted; tokens must be signed with one of ${o.algorithms.join(', ')}`)
  const keys = await o.getIssuerKeys(iss).catch((cause: unknown) => {
    throw passBudget(cause) ?? fail(`the keys of issuer ${show(iss)} could not be read${reason(cause)}`, cause)
  })
  try {
    await compactVerify(token, typeof keys === 'function' ? keys : createLocalJWKSet(keys), { algorithms: [alg] })
  } catch (cause) {
    if (cause instanceof errors.JWKSNoMatchingKey) throw fail(`no key of issuer ${show(iss)} matches kid ${show(header.kid)} and alg ${alg}`, cause)
    throw fail(`the ${o.what} signature does not verify with the keys of issuer ${show(iss)}`, cause)
  }
}

/** The fetch budget's refusal (429/503, Retry-After) reaches the client as it is: it is not a fault of the token. */
const passBudget = (cause: unknown) => (isBudgetRefusal(cause) ? cause : undefined)

// A resolver's HttpError already says what went wrong (the guarded fetcher's reason); anything else stays in `cause`.
export const reason = (cause: unknown) => (cause instanceof HttpError ? `: ${cause.description}` : '')

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
