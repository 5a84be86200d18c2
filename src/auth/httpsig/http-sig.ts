// The HttpSig scheme at the resource server: Authorization auth-params → verified signature → Principal.

import type { Credential } from '../../http/credentials.ts'
import { HttpError } from '../../http/errors.ts'
import { methodAsSent } from '../../http/head-as-get.ts'
import type { FetchDoc } from '../../fetch/guarded-fetch.ts'
import type { Store } from '../../store/open-store.ts'
import type { Principal } from '../principal.ts'
import type { WebId } from '../../account/ids.ts'
import { factsLinkKey, type KeyDocumentFacts } from './key-document.ts'
import { documentUrlOf, keyUrlOf, makeKeyResolver, type ReadableByPublic } from './key-lookup.ts'
import { NonceCache } from './nonce-cache.ts'
import { overShareError } from '../over-share.ts'
import { jwkThumbprint } from '../../lib/jwk-thumbprint.ts'
import type { PublicJwk } from './algorithms.ts'
import { bodyDigestCheck, declaresContent, mayHaveContent } from './content-digest.ts'
import { signatureError } from './signature-base.ts'
import { verifySignedRequest } from './verify-request.ts'
import { httpSigChallenge } from '../challenges.ts'

/** What the pod asks every signer to cover (RFC 9421 §5.1), `authorization` included (HttpSig step 3). */
export const HTTPSIG_REQUIRED = ['@method', '@target-uri', 'authorization'] as const
/** … and, for a request with content, its RFC 9530 Content-Digest: otherwise the body could be swapped on the way. */
export const HTTPSIG_REQUIRED_WITH_CONTENT = [...HTTPSIG_REQUIRED, 'content-digest'] as const

/**
 * RFC 9421 §5.1 Accept-Signature. The bare `nonce` follows the HttpSig draft: "include a nonce of your own,
 * unique per request" (RFC 9421 would have the signer copy a server-chosen value; the pod checks uniqueness instead).
 */
const acceptSignatureOf = (components: readonly string[]) => `sig1=(${components.map(c => `"${c}"`).join(' ')});created;nonce`
export const ACCEPT_SIGNATURE = acceptSignatureOf(HTTPSIG_REQUIRED)
export const ACCEPT_SIGNATURE_WITH_CONTENT = acceptSignatureOf(HTTPSIG_REQUIRED_WITH_CONTENT)

/** The Accept-Signature for a refused request: one that may carry content is told to sign its Content-Digest too. */
export const acceptSignatureFor = (headers: Headers) => (mayHaveContent(headers) ? ACCEPT_SIGNATURE_WITH_CONTENT : ACCEPT_SIGNATURE)

export interface HttpSigDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly fetchDoc: FetchDoc
  readonly now: () => number
  readonly readableByPublic: ReadableByPublic
  /** The nonce memory (one per pod); its share per key is `--httpsig-nonces-per-key`. */
  readonly nonces?: NonceCache
}

export type AuthenticateHttpSig = (request: Request, credential: Credential) => Promise<Principal>

export function makeHttpSigAuthenticator(deps: HttpSigDeps): AuthenticateHttpSig {
  const nonces = deps.nonces ?? new NonceCache()
  const { loadDocument, resolveKey } = makeKeyResolver(deps)

  async function authenticate(request: Request, credential: Credential): Promise<Principal> {
    const { params } = credential
    // draft-benfield-http2-p2p: the keyid (or cred) would be fetched from the client over its own connection.
    if (params.get('clienturl') === 'true') {
      throw signatureError('clientUrl=true needs the HTTP/2 peer-to-peer extension, which this pod does not speak; publish the key at a URL or use did:key')
    }
    const label = params.get('proof')
    if (label === undefined || label === '') throw signatureError('the HttpSig credential needs proof=<label of the signature>')
    const url = new URL(request.url)
    // RFC 9421 §2.2.2: the target URI as the pod names itself, never from the Host header.
    const targetUri = `${deps.baseUrl}${url.pathname}${url.search}`
    const cred = params.get('cred')
    const credUrl = cred === undefined ? undefined : credentialUrl(cred, targetUri)

    // HttpSig steps 4 and 6: the credential is fetched while the key is, both only once the message passed every
    // check that needs no key (a malformed or stale request makes the pod fetch nothing); one load per document.
    const docs = new Map<string, Promise<KeyDocumentFacts>>()
    const load = (docUrl: string) => {
      let p = docs.get(docUrl)
      if (!p) {
        p = loadDocument(docUrl)
        docs.set(docUrl, p)
        p.catch(() => {})
      }
      return p
    }
    let credDoc: Promise<KeyDocumentFacts> | undefined
    let keyUrl = ''
    let jwk: PublicJwk | undefined
    const verified = await verifySignedRequest({
      method: methodAsSent(request),
      targetUri,
      headers: request.headers,
      label,
      required: declaresContent(request.headers) ? HTTPSIG_REQUIRED_WITH_CONTENT : HTTPSIG_REQUIRED,
      now: deps.now(),
      resolveKey: async keyid => {
        keyUrl = keyUrlOf(keyid, targetUri)
        if (credUrl !== undefined) credDoc = load(documentUrlOf(credUrl))
        const resolved = await resolveKey(keyUrl, keyUrl.startsWith('did:') ? undefined : load(documentUrlOf(keyUrl)))
        jwk = resolved.jwk
        return resolved
      },
    })
    // Only now, the signature verified: the share is the signing key's (its thumbprint), so a stranger can neither
    // spend another key's share nor leave a nonce in it, and one busy signer is slowed alone (429), never the others.
    const verdict = nonces.remember(await jwkThumbprint(jwk!), keyUrl, verified.nonce, verified.replayUntil, deps.now())
    if (verdict === 'replayed') throw signatureError('this nonce was already used with this key; sign every request with a new nonce')
    if (verdict !== 'fresh') throw overShareError(verdict, 'this key signs requests')
    const webid = credUrl === undefined ? undefined : await provenWebId(credUrl, await credDoc!, keyUrl)
    return { keys: [keyUrl], ...(webid ? { webid } : {}), scheme: 'HttpSig', signedBody: { contentDigest: verified.contentDigest } }
  }

  return async (request, credential) => {
    try {
      return await authenticate(request, credential)
    } catch (err) {
      throw withHttpSigChallenge(err, request, acceptSignatureFor(request.headers))
    }
  }
}

/** A refusal of the HttpSig credential, re-sent with the challenge that says why and what to sign. */
function withHttpSigChallenge(err: unknown, request: Request, acceptSignature: string): unknown {
  if (!(err instanceof HttpError) || err.status !== 401) return err
  const realm = new URL(request.url).pathname
  return new HttpError(401, err.code, err.description, {
    cause: err.cause,
    headers: { 'www-authenticate': httpSigChallenge(realm, err), 'accept-signature': acceptSignature },
  })
}

/**
 * RFC 9530 §2 for a signed request, called where the resource server reads the body, before anything uses it:
 * the bytes must match the Content-Digest the signature covered (or be none, when it covered no digest).
 * Checked there rather than here because only there the body is read, once, after authorization, and within
 * the pod's body limit; reading it here as well would buffer a second copy for every signed request.
 */
export function checkSignedBody(principal: Principal, request: Request, body: Uint8Array): void {
  const check = signedBodyCheck(principal, request)
  check.observe(body)
  check.verify()
}

/** checkSignedBody for a body that streams to disk: each chunk is observed as it is stored, `verify` before it is used. */
export function signedBodyCheck(principal: Principal, request: Request): { observe(chunk: Uint8Array): void; verify(): void } {
  if (principal.signedBody === undefined) return { observe() {}, verify() {} }
  const check = bodyDigestCheck(principal.signedBody)
  return {
    observe: check.observe,
    verify() {
      try {
        check.verify()
      } catch (err) {
        throw withHttpSigChallenge(err, request, ACCEPT_SIGNATURE_WITH_CONTENT)
      }
    },
  }
}

// HttpSig proposal (Solid authentication panel): cred="<url>" names a credential by URL (relative to the request); cred=">url<" is on the client.
function credentialUrl(cred: string, targetUri: string): string {
  if (cred.startsWith('>') && cred.endsWith('<')) {
    throw signatureError(
      'cred=">…<" names a document on the client (HTTP/2 peer-to-peer extension), which this pod does not support; publish the credential at a URL',
    )
  }
  if (!cred.startsWith('<') || !cred.endsWith('>') || !URL.canParse(cred.slice(1, -1), targetUri)) {
    throw signatureError('cred must be a URL in angle brackets: cred="<https://…/profile/card#me>"')
  }
  const url = new URL(cred.slice(1, -1), targetUri)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw signatureError('cred must be an http(s) URL')
  return url.href
}

// HttpSig step 7: a WebID profile proves identity when it links the very key that signed (`cert:key`).
async function provenWebId(credUrl: string, facts: KeyDocumentFacts, keyUrl: string): Promise<WebId> {
  if (factsLinkKey(facts, credUrl, keyUrl)) return credUrl as WebId
  if (facts.isCredential) {
    throw signatureError('verifiable credentials are not supported yet (no issuer trust policy); send a WebID whose profile links the key with cert:key')
  }
  throw signatureError(`the WebID profile of ${credUrl} does not link the signing key ${keyUrl} with cert:key`)
}
