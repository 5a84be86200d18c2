// The check after the whole suite (`npm test`, test/refusals-sent-report.ts): every code of the refusal catalogue
// (src/http/refusals.ts) was sent by a pod under test, as heard from its `request.refused` log events
// (test/refusals-sent.ts), except the codes below. A code the suite never makes a pod send is a refusal no test
// has seen a client get: write the test that provokes it (its exact status and code), or, only when no request
// can provoke it, list it here with the reason.

import { REFUSALS, type RefusalCode } from '../src/http/refusals.ts'

/** Codes no test can make a pod send, each with why. */
export const NEVER_SENT: Partial<Record<RefusalCode, string>> = {
  // auth/dpop.ts checks a proof's nonce against the one the server issued (RFC 9449 §8), but the pod issues none:
  // no caller passes `expectedNonce`. The check itself is unit-tested (test/auth/dpop.test.ts).
  use_dpop_nonce: 'the pod never asks for a DPoP nonce',
  // fetch/guarded-fetch.ts and guarded-post.ts refuse a URL that is not absolute; every URL they are given was
  // checked first (a keyid, a client_id, a WebID, a webhook target), or the caller tells its failure as its own
  // refusal (invalid_signature, invalid_client …). Unit-tested in test/fetch/guarded-fetch.test.ts.
  fetch_refused: 'every caller checks the URL first or tells the failure as its own refusal',
}

export interface RefusalsSentVerdict {
  /** Catalogue codes no pod sent, and not listed in NEVER_SENT. */
  readonly neverSent: readonly string[]
  /** Codes in NEVER_SENT that a pod did send: the list is wrong, take them off. */
  readonly listedButSent: readonly string[]
  /** Codes heard that the catalogue does not have. */
  readonly unknown: readonly string[]
}

export function checkRefusalsSent(sent: ReadonlySet<string>, allowed: Partial<Record<string, string>> = NEVER_SENT): RefusalsSentVerdict {
  const codes = Object.keys(REFUSALS)
  return {
    neverSent: codes.filter(c => !sent.has(c) && allowed[c] === undefined),
    listedButSent: Object.keys(allowed).filter(c => sent.has(c)),
    unknown: [...sent].filter(c => !(c in REFUSALS)).sort(),
  }
}

export const passes = (v: RefusalsSentVerdict) => v.neverSent.length === 0 && v.listedButSent.length === 0 && v.unknown.length === 0
