// The one way to GET a remote document: SSRF guard on every hop, pinned DNS, timeout, size cap per kind
// of document, content-type check, a per-client budget and single-flight; our own origin is answered locally.

import { HttpError } from '../http/errors.ts'
import { currentClient } from '../lib/request-scope.ts'
import { FetchBudget } from './fetch-budget.ts'
import { getUrlRefusal } from './ssrf-guard.ts'
import { FAILED, fetchError, label, makeGuardedConnect, readCappedText } from './guarded-connect.ts'

export interface RemoteDoc {
  /** Final URL, after redirects, without fragment. */
  url: string
  /** Media type without parameters, lower case. */
  contentType: string
  body: string
  fetchedAt: number
  /**
   * Until when what the caller extracts from the document may be kept (RFC 9111 freshness, clamped);
   * absent for our own documents, which are read afresh every time.
   */
  expiresAt?: number
}

export interface FetchDocOptions {
  accept: string
  allowedTypes: string[]
  /** The cap for this kind of document (REMOTE_DOCUMENT_CAPS); the fetcher's `maxBytes` when absent. */
  maxBytes?: number
}

export type FetchDoc = (url: string, opts: FetchDocOptions) => Promise<RemoteDoc>

export interface FetcherOptions {
  allowInsecureLocal: boolean
  baseUrl: string
  /** Answers URLs on our own origin from the store; `undefined` means no such public document. */
  localLoader?: (url: string, accept: string) => Promise<RemoteDoc | undefined>
  timeoutMs?: number
  /** The cap of a call that names none. */
  maxBytes?: number
  /** Rations network fetches per client (the client comes from the request scope). */
  budget?: FetchBudget
  client?: () => string | undefined
  minTtlMs?: number
  maxTtlMs?: number
  now?: () => number
  lookup?: (host: string) => Promise<string[]>
  fetchImpl?: typeof fetch
}

/**
 * Caps per kind of document, measured against real ones (docs/security.md, "What a stranger can make the pod do"):
 * a key document with a few keys is under 2 KB, a WebID profile a few KB to ~40 KB, an OpenID
 * configuration or JWKS a few KB, a Client ID Document under 2 KB. Groups and shape trees are named
 * by the owner's own rules and grants, not by a stranger's request.
 */
export const REMOTE_DOCUMENT_CAPS = {
  keyDocument: 64 * 1024,
  profile: 256 * 1024,
  issuerJson: 64 * 1024,
  clientDocument: 64 * 1024,
  ownerNamed: 1024 * 1024,
} as const

const MAX_REDIRECTS = 3
const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * A failed fetch says what a usable answer looks like (never what came back): whoever publishes the
 * document can check theirs against it, and the log says what was wrong.
 */
function withExpectation(err: unknown, url: URL, allowedTypes: readonly string[], cap: number): unknown {
  if (!(err instanceof HttpError) || err.code !== 'fetch_failed' || !err.description.includes(FAILED)) return err
  const expected = `expected: status 200, ${allowedTypes.join(' or ')}, at most ${Math.floor(cap / 1024)} KiB`
  return new HttpError(502, 'fetch_failed', `${label(url)} ${FAILED} (${expected}); the pod's log says why`, { cause: err.cause })
}

const mediaType = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase()

/**
 * Freshness lifetime in ms per RFC 9111 §4.2.1 (max-age minus Age), clamped to [min, max];
 * 0 for `no-store` (§5.2.2.5). `no-cache` and absent headers get the floor: we never revalidate,
 * and the floor only stops bursts of identical fetches.
 */
export function freshnessMs(cacheControl: string | null, age: string | null, minMs: number, maxMs: number): number {
  const directives = new Map<string, string>()
  for (const part of (cacheControl ?? '').split(',')) {
    const [name, value = ''] = part.split('=')
    if (name?.trim()) directives.set(name.trim().toLowerCase(), value.trim().replace(/^"(.*)"$/, '$1'))
  }
  if (directives.has('no-store')) return 0
  const maxAge = /^\d+$/.test(directives.get('max-age') ?? '') ? Number(directives.get('max-age')) : 0
  const ageSeconds = /^\d+$/.test(age ?? '') ? Number(age) : 0
  return Math.min(maxMs, Math.max(minMs, (maxAge - ageSeconds) * 1000))
}

function parseTarget(raw: string): URL {
  if (!URL.canParse(raw)) {
    throw new HttpError(502, 'fetch_refused', 'remote document URL is not an absolute URL')
  }
  const url = new URL(raw)
  url.hash = '' // a fragment names a part of the document, never sent (RFC 9110 §4.2.4)
  return url
}

export function makeFetcher(opts: FetcherOptions): FetchDoc {
  const timeoutMs = opts.timeoutMs ?? 5000
  const maxBytes = opts.maxBytes ?? REMOTE_DOCUMENT_CAPS.keyDocument
  const minTtlMs = opts.minTtlMs ?? 5000
  const maxTtlMs = opts.maxTtlMs ?? 10 * 60 * 1000
  const now = opts.now ?? (() => Date.now())
  if (!URL.canParse(opts.baseUrl)) throw new Error('makeFetcher: baseUrl must be an absolute URL')
  if (!(timeoutMs > 0 && maxBytes > 0 && minTtlMs >= 0 && maxTtlMs >= minTtlMs)) {
    throw new Error('makeFetcher: timeoutMs and maxBytes must be positive, 0 ≤ minTtlMs ≤ maxTtlMs')
  }
  const ownOrigin = new URL(opts.baseUrl).origin
  const budget = opts.budget ?? new FetchBudget()
  const client = opts.client ?? currentClient
  const inFlight = new Map<string, Promise<RemoteDoc>>()
  const { connect } = makeGuardedConnect(opts)

  async function loadLocal(url: URL, accept: string): Promise<RemoteDoc> {
    const doc = await opts.localLoader?.(url.href, accept)
    // One answer for missing and private: the loader reads as the public would, and so does this message.
    if (!doc) throw new HttpError(404, 'fetch_failed', `${label(url)}: not a public document of this pod`)
    return doc
  }

  /** One network fetch with its redirects; `expiresAt` says how long what is read from it may be kept. */
  async function fetchRemote(start: URL, accept: string, maxBytes: number): Promise<RemoteDoc> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs)
    let url = start
    try {
      for (let hop = 0; ; hop++) {
        if (url.origin === ownOrigin) return await loadLocal(url, accept)
        const refusal = getUrlRefusal(url, opts.allowInsecureLocal)
        if (refusal) throw fetchError(url, refusal)
        const res = await connect(url, { method: 'GET', headers: { accept } }, controller.signal)
        if (REDIRECTS.has(res.status)) {
          await res.body?.cancel()
          const location = res.headers.get('location')
          if (hop === MAX_REDIRECTS) throw fetchError(start, `more than ${MAX_REDIRECTS} redirects`)
          if (location === null || !URL.canParse(location, url)) {
            throw fetchError(url, `answered ${res.status} without a valid Location`)
          }
          url = new URL(location, url)
          url.hash = ''
          continue
        }
        if (res.status !== 200) {
          await res.body?.cancel()
          throw fetchError(url, `answered ${res.status}, expected 200`)
        }
        const body = await readCappedText(res, url, maxBytes, controller.signal)
        const contentType = mediaType(res.headers.get('content-type'))
        const ttlMs = freshnessMs(res.headers.get('cache-control'), res.headers.get('age'), minTtlMs, maxTtlMs)
        const fetchedAt = now()
        return { url: url.href, contentType, body, fetchedAt, expiresAt: fetchedAt + ttlMs }
      }
    } catch (err) {
      // Named by the URL the client gave: where its redirects led is part of the reason, not of the answer
      if (err instanceof HttpError) throw err.code === 'fetch_failed' && url !== start ? fetchError(start, 'a redirect failed', err.cause) : err
      if (controller.signal.aborted) throw fetchError(start, `${label(url)}: no answer within ${timeoutMs} ms`, err)
      throw fetchError(start, `${label(url)}: could not fetch`, err)
    } finally {
      clearTimeout(timer)
      controller.abort(new Error('done')) // releases a connection left open by an error
    }
  }

  function checkType(doc: RemoteDoc, allowedTypes: string[]): RemoteDoc {
    if (allowedTypes.some(t => t.toLowerCase() === doc.contentType)) return doc
    const got = doc.contentType === '' ? 'no content type' : doc.contentType
    const what = `answered ${got}, expected one of ${allowedTypes.join(', ')}`
    const url = new URL(doc.url)
    // Our own documents are the owner's to fix, and they are public (loadLocal): the reason may be said
    if (url.origin === ownOrigin) throw new HttpError(502, 'fetch_failed', `${label(url)}: ${what}`)
    throw fetchError(url, what)
  }

  // No body is kept here: every caller keeps what it extracted (keys, issuers, members), until `expiresAt`.
  return async function fetchDoc(raw, { accept, allowedTypes, maxBytes: cap = maxBytes }) {
    const url = parseTarget(raw)
    // Our own documents come from the store, never over the network (and are never stale).
    if (url.origin === ownOrigin) return checkType(await loadLocal(url, accept), allowedTypes)
    const key = `${url.href}\n${accept}\n${cap}`
    let pending = inFlight.get(key)
    if (!pending) {
      // Refused before anything is sent; a request joining a fetch in flight costs its client nothing
      const release = budget.take(client(), now())
      pending = fetchRemote(url, accept, cap).finally(() => {
        release()
        inFlight.delete(key)
      })
      inFlight.set(key, pending)
    }
    try {
      return checkType(await pending, allowedTypes)
    } catch (err) {
      throw withExpectation(err, url, allowedTypes, cap)
    }
  }
}
