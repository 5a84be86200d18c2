// The one way the pod POSTs to a URL a stranger named (webhook deliveries): the same guards as the GET of
// remote documents (guarded-connect.ts), a timeout, no redirect followed, and the answer's body never read.

import { HttpError } from '../http/errors.ts'
import { fetchError, label, makeGuardedConnect, readCappedText, type ConnectOptions } from './guarded-connect.ts'
import { getUrlRefusal } from './ssrf-guard.ts'

export interface PosterOptions extends ConnectOptions {
  /** The pod's own origin: never a target (a webhook into the pod's own containers would create resources). */
  readonly baseUrl: string
  /** The whole exchange, connection to status line; 5 s like every remote fetch. */
  readonly timeoutMs?: number
}

export interface PostResult {
  readonly status: number
  /** Milliseconds from the start to the status line. */
  readonly ms: number
}

export interface Poster {
  /**
   * POSTs `body` to `url` and answers its status. The body of the answer is cancelled unread: a receiver's
   * answer is never quoted (a stranger's bytes in the owner's log) and never costs memory. Refusals,
   * connection failures and timeouts are an HttpError (`fetch_failed`) whose `cause` says why.
   */
  post(url: string, request: { readonly headers: Record<string, string>; readonly body: string }): Promise<PostResult>
  /** Why `url` may not be posted to (scheme, port, credentials, an address in a refused range), or undefined. */
  refusalOf(url: string): Promise<string | undefined>
  /**
   * POSTs and reads the answer, at most `maxBytes` of UTF-8 (a token endpoint's JSON): for exchanges whose
   * answer the pod needs. The caller checks the status and type and never quotes the body back.
   */
  exchange(url: string, request: { readonly headers: Record<string, string>; readonly body: string }, maxBytes: number): Promise<ExchangeResult>
}

export interface ExchangeResult {
  readonly status: number
  /** Media type without parameters, lower case. */
  readonly contentType: string
  readonly headers: Headers
  readonly body: string
}

export function makePoster(opts: PosterOptions): Poster {
  const timeoutMs = opts.timeoutMs ?? 5000
  const ownOrigin = new URL(opts.baseUrl).origin
  const { connect, resolve } = makeGuardedConnect(opts)

  function targetOf(raw: string): URL {
    if (!URL.canParse(raw)) throw new HttpError(502, 'fetch_refused', 'the target is not an absolute URL')
    const url = new URL(raw)
    url.hash = ''
    return url
  }

  /** The URL's own refusal, before any address is looked up. */
  function urlRefusal(url: URL): string | undefined {
    if (url.origin === ownOrigin) return 'the pod does not post to its own origin'
    return getUrlRefusal(url, opts.allowInsecureLocal)
  }

  /** One guarded POST within the timeout; `read` takes what it needs of the answer before the connection is released. */
  async function send<T>(
    raw: string,
    request: { readonly headers: Record<string, string>; readonly body: string },
    read: (res: Response, url: URL, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const url = targetOf(raw)
    const refusal = urlRefusal(url)
    if (refusal) throw fetchError(url, refusal)
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs)
    try {
      const res = await connect(url, { method: 'POST', headers: request.headers, body: request.body }, controller.signal)
      return await read(res, url, controller.signal)
    } catch (err) {
      if (err instanceof HttpError) throw err
      if (controller.signal.aborted) throw fetchError(url, `no answer within ${timeoutMs} ms`, err)
      throw fetchError(url, 'could not post', err)
    } finally {
      clearTimeout(timer)
      controller.abort(new Error('done')) // releases a connection left open by an error
    }
  }

  return {
    async post(raw, request) {
      const started = performance.now()
      return send(raw, request, async res => {
        await res.body?.cancel().catch(() => undefined) // unread by design: only the status counts
        return { status: res.status, ms: Math.round(performance.now() - started) }
      })
    },
    exchange: (raw, request, maxBytes) =>
      send(raw, request, async (res, url, signal) => ({
        status: res.status,
        headers: res.headers,
        contentType: (res.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase(),
        body: await readCappedText(res, url, maxBytes, signal),
      })),
    async refusalOf(raw) {
      const url = targetOf(raw)
      const refusal = urlRefusal(url)
      if (refusal) return refusal
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs)
      try {
        await resolve(url, controller.signal)
        return undefined
      } catch (err) {
        if (controller.signal.aborted) return `${label(url)}: the host name did not resolve within ${timeoutMs} ms`
        return err instanceof HttpError && err.cause instanceof Error ? err.cause.message : `${label(url)} cannot be reached`
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
