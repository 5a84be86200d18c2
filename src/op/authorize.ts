// The authorization endpoint's flow: validate, then login → consent → code, or an error redirect.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { CodeWithStatus } from '../http/refusals.ts'
import { coversScopes, getConsent } from '../account/consents.ts'
import { getLoginSession, type LoginSession } from '../account/owner-session.ts'
import { authorizationRedirect, errorRedirect, validateAuthorizationRequest } from './authorization-request.ts'
import { issueAuthorizationCode } from './authorization-codes.ts'
import type { ResolveClient } from './clients.ts'
import { finishInteraction, newInteraction, saveInteraction, type Interaction } from './interactions.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { logRefusal } from '../http/render-error.ts'
import { log } from '../log.ts'

type OpDeps = Pick<Deps, 'cfg' | 'store' | 'now'>

/** GET or POST /.oidc/auth: throws HttpError for a page (bad client or redirect URI), else a redirect. */
export async function startAuthorization(deps: OpDeps, resolveClient: ResolveClient, params: URLSearchParams, cookieHeader: string | null): Promise<Response> {
  const { cfg, store } = deps
  const now = deps.now()
  const v = await validateAuthorizationRequest({ params, issuer: cfg.baseUrl, now, resolveClient })
  if (!v.ok) {
    logRefusal({ path: OP_PATHS.authorization, clientId: params.get('client_id')?.slice(0, 200) }, v.error)
    return errorRedirect(v.redirectUri, v.error, v.state, cfg.baseUrl)
  }
  const session = await getLoginSession(store, cfg.baseUrl, cookieHeader, now)
  return continueAuthorization(deps, newInteraction(v.request, v.client, now), session, { stored: false })
}

/** OIDC Core §3.1.2.1 prompt=login and max_age: does this request need a fresh password entry? */
function needsLogin(i: Interaction, session: LoginSession | undefined, now: number): boolean {
  if (!session) return true
  if (i.loggedInWith === session.id) return false
  if (i.request.prompt.includes('login')) return true
  if (i.request.maxAge !== undefined && now - session.authTime > i.request.maxAge * 1000) return true
  return false
}

/**
 * The next step of an interaction: the login page, the consent page, or the code. Called by the
 * authorization endpoint, after login and after consent. prompt=none never shows a page
 * (OIDC Core §3.1.2.6: login_required, consent_required).
 */
export interface ContinueOptions {
  /** The owner just approved on the consent page. */
  readonly consentGiven?: boolean
  /** 302 from the authorization endpoint, 303 after a form post. */
  readonly status?: 302 | 303
  /** False while the interaction exists only in memory (straight from the authorization endpoint). */
  readonly stored?: boolean
}

export async function continueAuthorization(deps: OpDeps, i: Interaction, session: LoginSession | undefined, o: ContinueOptions = {}): Promise<Response> {
  const { cfg, store } = deps
  const { consentGiven = false, status = 302, stored = true } = o
  const now = deps.now()
  const r = i.request
  const silent = r.prompt.includes('none')
  const done = () => (stored ? finishInteraction(store, i) : Promise.resolve())
  const page = async (path: string) => {
    if (!stored) await saveInteraction(store, i)
    return new Response(null, { status: 303, headers: { location: `${cfg.baseUrl}${path}?interaction=${i.id}`, 'cache-control': 'no-store' } })
  }
  // Only prompt=none refuses here, and it never shows a page: the request is the authorization endpoint's
  const refuse = async (code: CodeWithStatus<400>, description: string) => {
    await done()
    const err = new HttpError(400, code, description)
    logRefusal({ path: OP_PATHS.authorization, clientId: r.clientId }, err)
    return errorRedirect(r.redirectUri, err, r.state, cfg.baseUrl, status)
  }
  if (needsLogin(i, session, now)) {
    if (silent) return refuse('login_required', 'prompt=none was sent but the owner is not signed in (or max_age requires a new sign-in)')
    return page(OP_PATHS.login)
  }
  const owner = session!
  // A remembered consent (the owner's own answer, revocable on the sessions page) also satisfies
  // prompt=consent: Inrupt's clients send it on every login because they ask for offline_access
  // (OIDC Core §11: "unless other conditions ... permitting offline access ... are in place"), and
  // asking again each time would break the consent page's promise to remember (§3.1.2.1: SHOULD).
  const remembered = coversScopes(await getConsent(store, r.clientId, now), r.scopes)
  if (!consentGiven && !remembered) {
    if (silent) return refuse('consent_required', 'prompt=none was sent but the owner has not consented to this client and these scopes')
    return page(OP_PATHS.consent)
  }
  const code = await issueAuthorizationCode(
    store,
    {
      clientId: r.clientId,
      redirectUri: r.redirectUri,
      webid: owner.webid,
      scopes: r.scopes,
      authTime: owner.authTime,
      includeAuthTime: r.includeAuthTime,
      loginSessionId: owner.id,
      ...(i.client.clientName !== undefined ? { clientName: i.client.clientName } : {}),
      ...(r.nonce !== undefined ? { nonce: r.nonce } : {}),
      ...(r.codeChallenge !== undefined ? { codeChallenge: r.codeChallenge, codeChallengeMethod: r.codeChallengeMethod! } : {}),
      ...(r.dpopJkt !== undefined ? { dpopJkt: r.dpopJkt } : {}),
    },
    now,
  )
  await done()
  log.info('op.code_issued', { clientId: r.clientId, webid: owner.webid })
  return authorizationRedirect(r.redirectUri, { code, state: r.state }, cfg.baseUrl, status)
}

/** The owner refused on the consent page: RFC 6749 §4.1.2.1 access_denied. */
export async function denyAuthorization(deps: OpDeps, i: Interaction): Promise<Response> {
  await finishInteraction(deps.store, i)
  const err = new HttpError(400, 'access_denied', 'the owner denied the request')
  logRefusal({ method: 'POST', path: OP_PATHS.consent, clientId: i.request.clientId }, err)
  return errorRedirect(i.request.redirectUri, err, i.request.state, deps.cfg.baseUrl, 303)
}
