// The owner's forms (pages that work without JavaScript) act through the resource server, as the
// dashboard's script does: the same LDP request with the owner's cookie and CSRF token, so every
// write is validated, locked and decided on the one path the RS has.

import { HttpError, PROBLEM_JSON } from '../http/errors.ts'
import { isRefusalCode, type RefusalCode, type StatusOf } from '../http/refusals.ts'
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
 * `request` is (its cookie and CSRF check were passed already). It asks for refusals as problem details
 * (RFC 9457), so a refusal becomes the HttpError the RS made, and the page shows the RS's own reason.
 */
export function makeOwnerLdp(baseUrl: string, forward: Forward) {
  return async (request: Request, method: string, path: string, call: LdpCall = {}): Promise<Response> => {
    const cookie = request.headers.get('cookie') ?? ''
    const csrf = parseCookies(cookie).get(csrfCookieName(baseUrl)) ?? ''
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

export type OwnerLdp = ReturnType<typeof makeOwnerLdp>

/** The RS's refusal as it made it; anything else (it always answers problem details when asked) is the pod's own failure. */
async function refusalOf(res: Response): Promise<HttpError> {
  const problem = res.headers.get('content-type') === PROBLEM_JSON ? await res.json().catch(() => undefined) as { error?: unknown; detail?: unknown } | undefined : undefined
  if (typeof problem?.error === 'string' && isRefusalCode(problem.error) && typeof problem.detail === 'string') {
    return new HttpError(res.status as StatusOf<RefusalCode>, problem.error, problem.detail)
  }
  return new HttpError(500, 'server_error', `the resource server answered ${res.status} without a refusal the pod knows`)
}
