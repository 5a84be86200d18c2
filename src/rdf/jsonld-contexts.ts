// The JSON-LD contexts the pod knows by heart, and the document loader that never goes online.

import type { RemoteDocument } from 'jsonld'

/**
 * jsonld.js (with its dependencies) takes ~50 ms to load, a sixth of the pod's start; most
 * requests never touch JSON-LD, so it is loaded on first use.
 */
let jsonLd: Promise<typeof import('jsonld').default> | undefined
export const loadJsonLd = () => (jsonLd ??= import('jsonld').then(m => m.default))
import { HttpError } from '../http/errors.ts'
import didV1 from './contexts/did-v1.json'
import jws2020V1 from './contexts/jws-2020-v1.json'
import solidOidcContext from './contexts/solid-oidc-context.json'

export const SOLID_OIDC_CONTEXT = 'https://www.w3.org/ns/solid/oidc-context.jsonld'
export const DID_V1_CONTEXT = 'https://www.w3.org/ns/did/v1'
export const JWS_2020_V1_CONTEXT = 'https://w3id.org/security/suites/jws-2020/v1'

/**
 * Bundled copies: Solid-OIDC Appendix A (Client ID Documents), DID Core v1 and the
 * JWS-2020 suite (key documents, HttpSig draft (key documents)). Parsing a request body must not make the
 * pod fetch a URL the client chose (SSRF, and a third party could change what a document means).
 */
export const BUNDLED_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [SOLID_OIDC_CONTEXT, solidOidcContext],
  [DID_V1_CONTEXT, didV1],
  [JWS_2020_V1_CONTEXT, jws2020V1],
])

/**
 * jsonld.js `documentLoader`: answers bundled contexts, refuses every other URL.
 * Each answer is a fresh copy so no caller can alter the bundled document for the next one.
 */
export async function loadBundledContext(url: string): Promise<RemoteDocument> {
  const context = BUNDLED_CONTEXTS.get(url)
  if (context === undefined) {
    throw new HttpError(
      400,
      'jsonld_context_not_allowed',
      `remote JSON-LD context ${shorten(url)} is not allowed; this pod only knows ${[...BUNDLED_CONTEXTS.keys()].join(', ')}`,
    )
  }
  return { contextUrl: null, documentUrl: url, document: structuredClone(context) }
}

/** The URL is the client's text: echo enough to recognise it, not a megabyte of it. */
const shorten = (url: string) => (url.length > 200 ? `${url.slice(0, 200)}…` : url)
