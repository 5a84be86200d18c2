// Pages rendered by the pod act through the resource server, as a script in the browser would: the same
// LDP request with the browser's cookie and CSRF token (the owner's dashboard pages and their forms, a visitor's
// pages), so every read and write is validated, locked and decided on the one path the RS has.

import { HttpError, PROBLEM_JSON } from './errors.ts'
import { isRefusalCode, type RefusalCode, type StatusOf } from './refusals.ts'
import { csrfCookieName } from './csrf.ts'
import { parseCookies } from './cookies.ts'

/** The app's own request handler (app.ts hands it in: no role imports the RS). */
export type Forward = (request: Request) => Promise<Response>

export interface LdpCall {
  readonly headers?: Record<string, string>
  readonly body?: BodyInit
  /**
   * The page's CSRF token when the browser did not send its cookie: a SameSite=Strict cookie stays behind on
   * a navigation that began on another site (a visitor back from their provider), and the page sets it anew.
   */
  readonly csrf?: string
}

/**
 * `ldp(request, method, path, call)` repeats `method` on the pod path as whoever the cookie of `request`
 * names (the owner, a visitor; the caller checked its CSRF token already). It asks for refusals as problem details
 * (RFC 9457), so a refusal becomes the HttpError the RS made, and the page shows the RS's own reason.
 */
export function makeCookieLdp(baseUrl: string, forward: Forward) {
  return async (request: Request, method: string, path: string, call: LdpCall = {}): Promise<Response> => {
    const sent = request.headers.get('cookie') ?? ''
    const csrf = call.csrf ?? parseCookies(sent).get(csrfCookieName(baseUrl)) ?? ''
    const cookie = call.csrf !== undefined && !parseCookies(sent).has(csrfCookieName(baseUrl)) ? `${sent}${sent ? '; ' : ''}${csrfCookieName(baseUrl)}=${call.csrf}` : sent
    // Any representation, as without an Accept header (RFC 9110 §12.5.1), and problem details for a refusal
    const accept = call.headers?.accept ?? '*/*'
    const res = await forward(new Request(baseUrl + path, {
      method, headers: { ...call.headers, accept: `${accept}, ${PROBLEM_JSON}`, cookie, 'x-csrf-token': csrf, origin: baseUrl },
      ...(call.body === undefined ? {} : { body: call.body }),
    }))
    if (res.ok) return res
    throw await refusalOf(res)
  }
}

export type CookieLdp = ReturnType<typeof makeCookieLdp>

/** The RS's refusal as it made it; anything else (it always answers problem details when asked) is the pod's own failure. */
async function refusalOf(res: Response): Promise<HttpError> {
  const problem = res.headers.get('content-type') === PROBLEM_JSON ? await res.json().catch(() => undefined) as { error?: unknown; detail?: unknown } | undefined : undefined
  if (typeof problem?.error === 'string' && isRefusalCode(problem.error) && typeof problem.detail === 'string') {
    return new HttpError(res.status as StatusOf<RefusalCode>, problem.error, problem.detail)
  }
  return new HttpError(500, 'server_error', `the resource server answered ${res.status} without a refusal the pod knows`)
}
