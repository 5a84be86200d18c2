// OIDC RP-Initiated Logout 1.0 at /.oidc/session/end: validated post_logout_redirect_uri, CSRF-safe.

import { compactVerify, createLocalJWKSet } from 'jose'
import type { Deps } from '../deps.ts'
import { badRequest } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { html, renderMessagePage, renderPage } from '../http/html-page.ts'
import { getAppSession } from '../account/app-sessions.ts'
import { endLoginSession, getLoginSession } from '../account/owner-session.ts'
import { log } from '../log.ts'
import type { ResolveClient } from './clients.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'

type OpDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'signingKeys' | 'revocations'>

export interface EndSessionFacts {
  readonly params: URLSearchParams
  readonly method: string
  readonly cookieHeader: string | null
  readonly origin: string | null
}

const invalid = (description: string) => badRequest(description)
const FIELDS = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] as const

/** RP-Initiated Logout §2: the hint is one of our ID tokens; an expired one still names the session. */
async function readIdTokenHint(deps: OpDeps, hint: string): Promise<{ azp?: string; sid?: string }> {
  try {
    const { payload } = await compactVerify(hint, createLocalJWKSet(await deps.signingKeys.publicJwks(deps.now())), { algorithms: ['ES256'] })
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>
    if (claims.iss !== deps.cfg.baseUrl) throw new Error('foreign issuer')
    return { ...(typeof claims.azp === 'string' ? { azp: claims.azp } : {}), ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}) }
  } catch (cause) {
    throw badRequest('id_token_hint is not an ID token of this provider (or its signing key has been retired); sign out without it', { cause })
  }
}

export function makeEndSession(deps: OpDeps, resolveClient: ResolveClient) {
  const { cfg, store } = deps

  /** Was the hinted app session authorized in the login session this request's cookie names? */
  async function isCurrentSessionHint(hint: { sid?: string } | undefined, cookieHeader: string | null): Promise<boolean> {
    if (hint?.sid === undefined) return false
    const now = deps.now()
    const current = await getLoginSession(store, cfg.baseUrl, cookieHeader, now)
    if (!current) return false
    return (await getAppSession(store, hint.sid, now))?.loginSessionId === current.id
  }

  return async function endSession(f: EndSessionFacts): Promise<Response> {
    const p = new Map<string, string>()
    for (const [k, v] of f.params) {
      if (v === '') continue
      if (p.has(k)) throw invalid(`parameter ${k} must be sent once`)
      p.set(k, v)
    }
    const hintText = p.get('id_token_hint')
    const hint = hintText !== undefined ? await readIdTokenHint(deps, hintText) : undefined
    const clientId = hint?.azp ?? p.get('client_id')
    if (hint?.azp !== undefined && p.has('client_id') && p.get('client_id') !== hint.azp) throw invalid('client_id differs from the azp of id_token_hint')
    // §3: the URI must have been registered by the client; otherwise no redirect, ever
    const target = p.get('post_logout_redirect_uri')
    if (target !== undefined) {
      if (clientId === undefined) throw invalid('post_logout_redirect_uri needs id_token_hint or client_id to know which client registered it')
      const client = await resolveClient(clientId)
      if (!client.postLogoutRedirectUris.includes(target))
        throw invalid(`post_logout_redirect_uri ${JSON.stringify(target.slice(0, 200))} is not one of the post_logout_redirect_uris of ${client.clientId}`)
    }
    // §2 (logout CSRF): without asking only when the hint is an ID token of this browser's current
    // login session. Any other (an old token, a leaked one, another browser's) only fills in the form.
    const confirmed = f.method === 'POST' && p.get('confirm') === 'yes'
    if (confirmed) checkCsrf({ cookieHeader: f.cookieHeader, sent: p.get('csrf'), origin: f.origin, baseUrl: cfg.baseUrl })
    if (!confirmed && !(await isCurrentSessionHint(hint, f.cookieHeader))) {
      const { token, setCookie } = csrfTokenFor(f.cookieHeader, cfg.baseUrl)
      const fields = FIELDS.filter(n => p.has(n)).map(n => html`<input type="hidden" name="${n}" value="${p.get(n)}">`)
      return renderPage(
        'logout.html',
        'Sign out',
        {
          csrf: token,
          fields: html`${fields}`,
          // In the words of the Signed out page and the dashboard's, not "your pod's identity provider"
          text: clientId
            ? `${clientId} asks to sign you out of your pod in this browser. The app sessions you started from it end too.`
            : 'Sign out of your pod in this browser? The app sessions you started from it end too.',
        },
        { headers: setCookie ? { 'set-cookie': setCookie } : {} },
      )
    }
    const clear = await endLoginSession(store, cfg.baseUrl, f.cookieHeader)
    if (hint?.sid !== undefined) await deps.revocations.revoke(hint.sid, deps.now())
    log.info('op.logout', { ...(clientId ? { clientId } : {}) })
    if (target !== undefined) {
      const url = new URL(target)
      if (p.has('state')) url.searchParams.append('state', p.get('state')!)
      return new Response(null, { status: 303, headers: { location: url.href, 'set-cookie': clear, 'cache-control': 'no-store' } })
    }
    return renderMessagePage(
      'Signed out',
      'You are signed out of your pod in this browser.',
      { href: loginPageFor(ADMIN_PATHS.sessions), label: 'Sign in again' },
      { 'set-cookie': clear },
    )
  }
}
