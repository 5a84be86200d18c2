// The plain-http port of a pod with its own certificate: the http-01 challenge (RFC 8555 §8.3) and, for
// everything else, a redirect to the same path on https.

import { HttpError, toPlainResponse } from '../http/errors.ts'

/** RFC 8555 §8.3: the CA asks for `/.well-known/acme-challenge/{token}`; a token is base64url. */
const CHALLENGE = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{1,256})$/

export interface HttpChallenges {
  set(token: string, keyAuthorization: string): void
  delete(token: string): void
  /** The answer on the http port: the key authorization, a 404 for an unknown token, or a redirect to `baseUrl`. */
  answer(request: Request, baseUrl: string): Response
}

export function makeHttpChallenges(): HttpChallenges {
  // Only while an order is under way: a handful of entries at most.
  const pending = new Map<string, string>()
  return {
    set: (token, keyAuthorization) => {
      pending.set(token, keyAuthorization)
    },
    delete: token => {
      pending.delete(token)
    },
    answer(request, baseUrl) {
      const url = new URL(request.url)
      const token = CHALLENGE.exec(url.pathname)?.[1]
      if (token !== undefined) {
        const keyAuthorization = pending.get(token)
        if (keyAuthorization === undefined) return toPlainResponse(new HttpError(404, 'not_found', 'no ACME challenge of this token is pending'))
        return new Response(keyAuthorization, { headers: { 'content-type': 'application/octet-stream' } })
      }
      // 308 keeps the method and body (RFC 9110 §15.4.9): a form posted to http:// arrives at https:// as sent.
      return new Response(null, { status: 308, headers: { location: `${baseUrl}${url.pathname}${url.search}` } })
    },
  }
}
