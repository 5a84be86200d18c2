// The one error type of the pod: HTTP status + catalogued error code (http/refusals.ts) + human description.

import { REFUSALS, type RefusalCode, type StatusOf } from './refusals.ts'
import { namesType } from './content-negotiation.ts'

export interface HttpErrorOptions {
  /** Logged, never sent. */
  cause?: unknown
  /** Extra response headers (e.g. WWW-Authenticate challenges, DPoP-Nonce, Allow). */
  headers?: Record<string, string | string[]>
  /** Extra JSON members for OAuth/UMA bodies (e.g. UMA `ticket`, `required_claims`). */
  extra?: Record<string, unknown>
  /** The thrower logs these refusals itself, rate-limited (a flood must not flood the log): no line per request. */
  logged?: boolean
}

/** `code` is one of the catalogue's, and `status` one that code is sent with (tsc checks both). */
export class HttpError<C extends RefusalCode = RefusalCode> extends Error {
  readonly status: number
  readonly code: C
  readonly description: string
  readonly headers: Record<string, string | string[]>
  readonly extra: Record<string, unknown>
  readonly logged: boolean

  constructor(status: StatusOf<C>, code: C, description: string, opts: HttpErrorOptions = {}) {
    super(description, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.description = description
    this.headers = opts.headers ?? {}
    this.extra = opts.extra ?? {}
    this.logged = opts.logged ?? false
  }
}

/** A refusal with its code's usual status (the catalogue's first). */
export const refusal = <C extends RefusalCode>(code: C, description: string, opts?: HttpErrorOptions): HttpError<C> =>
  new HttpError<C>(REFUSALS[code].status[0] as StatusOf<C>, code, description, opts)

export const badRequest = (description: string, opts?: HttpErrorOptions) => refusal('invalid_request', description, opts)

/** RFC 6750 §3.1: an access token that cannot be used; the caller adds the challenge of its scheme. */
export const invalidToken = (description: string, cause?: unknown) => refusal('invalid_token', description, { cause })

function applyHeaders(target: Headers, extra: Record<string, string | string[]>) {
  for (const [name, value] of Object.entries(extra)) {
    if (Array.isArray(value)) for (const v of value) target.append(name, v)
    else target.set(name, value)
  }
}

/**
 * OAuth/UMA endpoints and the owner API: `{ error, error_description, ... }` JSON, never cached
 * (RFC 6749 §5.2; UMA `need_info` adds `ticket` and `required_claims`, the owner API `violations`).
 */
export function toJsonResponse(err: HttpError, headers: Headers = new Headers()): Response {
  headers.set('content-type', 'application/json')
  headers.set('cache-control', 'no-store')
  applyHeaders(headers, err.headers)
  const body = { error: err.code, error_description: err.description, ...err.extra }
  return new Response(JSON.stringify(body), { status: err.status, headers })
}

/** Resource server: status, challenges and a short plain-text reason, `code: description`. */
export function toPlainResponse(err: HttpError, headers: Headers = new Headers()): Response {
  headers.set('content-type', 'text/plain; charset=utf-8')
  applyHeaders(headers, err.headers)
  return new Response(`${err.code}: ${err.description}\n`, { status: err.status, headers })
}

export const PROBLEM_JSON = 'application/problem+json'

/**
 * Resource server, for a client that lists `application/problem+json` in Accept (the dashboard, the
 * owner's forms): RFC 9457 problem details, `title` the code's meaning, `detail` this refusal's reason,
 * and the code itself in the extension member `error`, as in every other JSON refusal of the pod; a refusal
 * with a registered problem type (resumable uploads) gives it as `type`, with its extension members, in `extra`.
 */
export function toProblemResponse(err: HttpError, headers: Headers = new Headers()): Response {
  headers.set('content-type', PROBLEM_JSON)
  applyHeaders(headers, err.headers)
  const body = { title: REFUSALS[err.code].means, status: err.status, detail: err.description, error: err.code, ...err.extra }
  return new Response(JSON.stringify(body), { status: err.status, headers })
}

/** Problem details only for a client that names them in Accept (RFC 9110 §12.5.1); a wildcard gets plain text. */
export const asksForProblemJson = (accept: string | null) => namesType(accept, PROBLEM_JSON)

/** The resource server's one format: plain text, or problem details for a client that asks. */
export const toResourceResponse =
  (request: Request) =>
  (err: HttpError): Response =>
    asksForProblemJson(request.headers.get('accept')) ? toProblemResponse(err) : toPlainResponse(err)
