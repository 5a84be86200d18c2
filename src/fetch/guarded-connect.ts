// One guarded request to a host a stranger named: every address checked against the SSRF table, the
// connection made to a checked address (never the name again), no proxy, no pooling, no redirect followed.
// The GET of remote documents (guarded-fetch.ts) and the POST of webhooks (guarded-post.ts) both go through it.

import { HttpError } from '../http/errors.ts'
import { bareHost, getAddressRefusal, isIpLiteral } from './ssrf-guard.ts'

export interface ConnectOptions {
  readonly allowInsecureLocal: boolean
  readonly lookup?: (host: string) => Promise<string[]>
  readonly fetchImpl?: typeof fetch
}

export interface GuardedRequest {
  readonly method: 'GET' | 'POST'
  readonly headers: Record<string, string>
  readonly body?: string
}

// node:dns is loaded on the first remote request, not at every start.
const lookupAll = async (host: string) => (await (await import('node:dns/promises')).lookup(host, { all: true })).map(a => a.address)

/** origin + path only: the query may carry tokens and is never put in an error. */
export const label = (url: URL) => `${url.protocol}//${url.host}${url.pathname}`

export const FAILED = 'could not be fetched as a usable document'

/**
 * Whoever sent the request chose the URL, so a failure says only that it failed: which step failed
 * (no connection, an error status, a timeout, too large, another type) would tell a stranger what
 * answers on hosts and ports the pod can reach. The reason travels in `cause`, which is logged.
 */
export const fetchError = (url: URL, what: string, cause?: unknown) =>
  new HttpError(502, 'fetch_failed', `${label(url)} ${FAILED}; the pod's log says why`, {
    cause: new Error(`${label(url)}: ${what}`, cause === undefined ? undefined : { cause }),
  })

/** Rejects with the signal's reason once it aborts, for steps that take no signal (DNS, body reads). */
export function untilAborted<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    step.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export function makeGuardedConnect(opts: ConnectOptions) {
  const lookup = opts.lookup ?? lookupAll
  const fetchImpl = opts.fetchImpl ?? fetch

  /** DNS answers checked all at once: one refused address refuses the host (a rebinding attacker picks). */
  async function resolve(url: URL, signal: AbortSignal): Promise<string[]> {
    const host = bareHost(url.hostname)
    let addresses: string[]
    if (isIpLiteral(host)) addresses = [host]
    else {
      try {
        addresses = await untilAborted(lookup(host), signal)
      } catch (err) {
        if (signal.aborted) throw err
        throw fetchError(url, 'host name does not resolve', err)
      }
    }
    if (addresses.length === 0) throw fetchError(url, 'host name does not resolve')
    for (const address of addresses) {
      const refusal = getAddressRefusal(address, opts.allowInsecureLocal)
      if (refusal) throw fetchError(url, `host address is in a refused range: ${refusal}`)
    }
    return addresses
  }

  /**
   * Connects to a checked address, never to the name: a second resolution inside fetch could answer
   * differently (DNS rebinding). Host header and TLS server name keep the request about the name.
   */
  async function connect(url: URL, request: GuardedRequest, signal: AbortSignal): Promise<Response> {
    const addresses = await resolve(url, signal)
    const named = !isIpLiteral(url.hostname)
    let lastError: unknown
    for (const address of addresses) {
      const target = new URL(url)
      target.hostname = address.includes(':') ? `[${address}]` : address
      try {
        return await fetchImpl(target, {
          method: request.method,
          headers: { ...request.headers, host: url.host },
          ...(request.body !== undefined ? { body: request.body } : {}),
          redirect: 'manual', // every hop goes through the guard again
          signal,
          proxy: false, // a proxy would connect to whatever the name means to it
          keepalive: false, // no pooled connection shared across names on one address
          ...(named && url.protocol === 'https:' ? { tls: { serverName: url.hostname } } : {}),
        })
      } catch (err) {
        if (signal.aborted) throw err
        lastError = err
      }
    }
    throw fetchError(url, 'could not connect', lastError)
  }

  return { resolve, connect }
}

/** A body of at most `maxBytes`, as UTF-8 text: larger or not UTF-8 is a `fetch_failed` refusal (the reason in `cause`). */
export async function readCappedText(res: Response, url: URL, maxBytes: number, signal: AbortSignal): Promise<string> {
  const tooLarge = () => fetchError(url, `body is larger than ${maxBytes} bytes`)
  if (Number(res.headers.get('content-length')) > maxBytes) {
    await res.body?.cancel()
    throw tooLarge()
  }
  const chunks: Uint8Array[] = []
  let size = 0
  if (res.body) {
    const reader = res.body.getReader()
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal)
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        await reader.cancel()
        throw tooLarge()
      }
      chunks.push(value)
    }
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch (err) {
    throw fetchError(url, 'body is not valid UTF-8', err)
  }
}
