// The page a browser gets instead of a bare 401/403: what this pod is, whose it is, and where to sign in.

import { HttpError } from '../http/errors.ts'
import { negotiate } from '../http/content-negotiation.ts'
import { RDF_OFFERS } from '../rdf/media-types.ts'
import { breakableUrl, html, renderPage } from '../http/html-page.ts'
import type { Store } from '../store/open-store.ts'
import { getOwnerAccount } from '../account/owner-account.ts'
import { getLoginSession } from '../account/owner-session.ts'
import { ownerWebIdOf } from '../config.ts'
import { NEW_SETUP_LINK_HINT } from '../http/owner-help.ts'
import { ADMIN_PATHS, VISIT_PATHS, loginPageFor } from '../http/pod-paths.ts'
import { readablePath } from '../lib/readable-path.ts'

const LOGIN_PAGE = loginPageFor(ADMIN_PATHS.dashboard)
const DASHBOARD = ADMIN_PATHS.dashboard

/**
 * RFC 9110 §12.5.1: only a client that ranks `text/html` strictly above every RDF syntax gets the page.
 * Apps (asking for Turtle, JSON-LD, any type, or sending no Accept) keep the plain answer with its challenges.
 */
export function prefersHtml(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  return negotiate(request.headers.get('accept'), [...RDF_OFFERS, 'text/html']) === 'text/html'
}

/** Refusals of the read path (WAC deny) that a person in a browser should see as the front door. */
export const isAccessRefusal = (err: unknown): err is HttpError =>
  err instanceof HttpError && ((err.status === 401 && err.code === 'unauthenticated') || (err.status === 403 && err.code === 'forbidden'))

export interface FrontDoorFacts {
  readonly store: Store
  readonly baseUrl: string
  readonly now: number
  readonly request: Request
  readonly path: string
}

/**
 * Same status and headers as the refusal (challenges, Link, WAC-Allow), so the answer stays true to
 * HTTP; only the body is for a person. `Vary: Accept` because apps get text at the same URL.
 */
export async function renderFrontDoor(f: FrontDoorFacts, refusal: HttpError): Promise<Response> {
  const account = await getOwnerAccount(f.store)
  const webid = account?.webid ?? ownerWebIdOf(f.baseUrl)
  const cookie = f.request.headers.get('cookie')
  const signedIn = cookie ? await getLoginSession(f.store, f.baseUrl, cookie, f.now) : undefined
  // The path as people read it (`/Été/notes.txt`, not `/%C3%89t%C3%A9/…`), isolated from the sentence's direction
  const what = f.path === '/' ? "The pod's root (/)" : html`<bdi>${readablePath(f.path)}</bdi>`
  const reason =
    refusal.status === 401
      ? html`${what} is not public: only a Solid app signed in by someone it is shared with can read it.`
      : html`${what} is not shared with the agent that asked.`
  const res = await renderPage(
    'front-door.html',
    'Solid pod',
    {
      profile: webid,
      webid: breakableUrl(webid),
      reason,
      // Someone it is shared with signs in with their own pod and comes back here (visit/)
      visitor: `${VISIT_PATHS.signIn}?return=${encodeURIComponent(f.path)}`,
      owner: ownerBox(Boolean(account?.passwordHash), Boolean(signedIn)),
      status: `HTTP ${refusal.status}`,
      code: refusal.code,
    },
    { status: refusal.status, headers: { ...refusal.headers, vary: 'Accept' } },
  )
  return f.request.method === 'HEAD' ? new Response(null, { status: res.status, headers: res.headers }) : res
}

function ownerBox(passwordSet: boolean, signedIn: boolean) {
  if (signedIn) {
    return html`<h2>You are signed in as the owner</h2>
<p>This page does not show your data: Solid apps do, with their own sign-in. Open a Solid app and give it this pod's
address as your provider, or open <a href="${DASHBOARD}">your dashboard</a>.</p>`
  }
  if (!passwordSet) {
    return html`<h2>Is this your pod?</h2>
<p>No password is set yet. The one-time setup link was printed in the terminal where the server was started.
${NEW_SETUP_LINK_HINT}</p>`
  }
  return html`<h2>Is this your pod?</h2>
<p><a class="button" href="${LOGIN_PAGE}">Sign in</a> to manage your pod: files, sharing, apps and backups.</p>`
}
