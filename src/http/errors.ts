// The one error type of the pod: HTTP status + spec error code + human description.

export interface HttpErrorOptions {
  /** Logged, never sent. */
  cause?: unknown
  /** Extra response headers (e.g. WWW-Authenticate challenges, DPoP-Nonce, Allow). */
  headers?: Record<string, string | string[]>
  /** Extra JSON members for OAuth/UMA bodies (e.g. UMA `ticket`, `required_claims`). */
  extra?: Record<string, unknown>
}

export class HttpError extends Error {
  readonly status: number
  readonly code: string
  readonly description: string
  readonly headers: Record<string, string | string[]>
  readonly extra: Record<string, unknown>

  constructor(status: number, code: string, description: string, opts: HttpErrorOptions = {}) {
    super(description, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.description = description
    this.headers = opts.headers ?? {}
    this.extra = opts.extra ?? {}
  }
}

export const badRequest = (description: string, opts?: HttpErrorOptions) =>
  new HttpError(400, 'invalid_request', description, opts)

function applyHeaders(target: Headers, extra: Record<string, string | string[]>) {
  for (const [name, value] of Object.entries(extra)) {
    if (Array.isArray(value)) for (const v of value) target.append(name, v)
    else target.set(name, value)
  }
}

/** OAuth/UMA endpoints: `{ error, error_description }` JSON, never cached (RFC 6749 §5.2). */
export function toOAuthResponse(err: HttpError, headers: Headers = new Headers()): Response {
  headers.set('content-type', 'application/json')
  headers.set('cache-control', 'no-store')
  applyHeaders(headers, err.headers)
  const body = { error: err.code, error_description: err.description, ...err.extra }
  return new Response(JSON.stringify(body), { status: err.status, headers })
}

/** Resource server: status, challenges and a short plain-text reason. */
export function toPlainResponse(err: HttpError, headers: Headers = new Headers()): Response {
  headers.set('content-type', 'text/plain; charset=utf-8')
  applyHeaders(headers, err.headers)
  return new Response(`${err.code}: ${err.description}\n`, { status: err.status, headers })
}
