// A JSON answer: every JSON body the pod sends (API answers, discovery, tokens, JSON refusals) is made here.

export interface JsonResponseOptions {
  readonly status?: number
  /** `no-store` unless said otherwise: most JSON answers are about one person or carry secrets (RFC 6749 §5.1). */
  readonly cacheControl?: string
  readonly headers?: Record<string, string>
}

export function jsonResponse(value: unknown, o: JsonResponseOptions = {}): Response {
  return new Response(JSON.stringify(value), {
    status: o.status ?? 200,
    headers: { 'content-type': 'application/json', 'cache-control': o.cacheControl ?? 'no-store', ...o.headers },
  })
}
