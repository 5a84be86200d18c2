// The owner's forms (pages that work without JavaScript) act through the resource server, as the
// dashboard's script does: the same LDP request with the owner's cookie and CSRF token, so every
// write is validated, locked and decided on the one path the RS has.

import { HttpError } from '../http/errors.ts'
import { csrfCookieName } from '../http/csrf.ts'
import { parseCookies } from '../http/cookies.ts'

/** The app's own request handler (app.ts hands it in: admin never imports the RS). */
export type Forward = (request: Request) => Promise<Response>

export interface LdpCall {
  readonly headers?: Record<string, string>
  readonly body?: BodyInit
}

/**
 * `ldp(request, method, path, call)` repeats `method` on the pod path as the owner whose form post
 * `request` is (its cookie and CSRF check were passed already). A refusal becomes the HttpError the
 * RS answered (`code: description`), so the page shows the resource server's own reason.
 */
export function makeOwnerLdp(baseUrl: string, forward: Forward) {
  return async (request: Request, method: string, path: string, call: LdpCall = {}): Promise<Response> => {
    const cookie = request.headers.get('cookie') ?? ''
    const csrf = parseCookies(cookie).get(csrfCookieName(baseUrl)) ?? ''
    const res = await forward(new Request(baseUrl + path, {
      method, headers: { ...call.headers, cookie, 'x-csrf-token': csrf, origin: baseUrl },
      ...(call.body === undefined ? {} : { body: call.body }),
    }))
    if (res.ok) return res
    const text = (await res.text()).trim()
    const m = /^([a-z_]+): ([\s\S]*)$/.exec(text)
    throw new HttpError(res.status, m?.[1] ?? `http_${res.status}`, m?.[2] ?? (text || `the resource server answered ${res.status}`))
  }
}

export type OwnerLdp = ReturnType<typeof makeOwnerLdp>
