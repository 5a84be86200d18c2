// The consent page: who asks (name, logo, URI), for which scopes; the answer is remembered per client.

import type { Deps } from '../deps.ts'
import { badRequest } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { breakableUrl, html, renderPage } from '../http/html-page.ts'
import { saveConsent } from '../account/consents.ts'
import { getLoginSession } from '../account/owner-session.ts'
import { log } from '../log.ts'
import { continueAuthorization, denyAuthorization } from './authorize.ts'
import { getInteraction, renderGoneInteraction, type Interaction } from './interactions.ts'
import { SCOPE_DESCRIPTIONS } from './model.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { isWebUrl } from '../lib/web-url.ts'
import { proposedFolders } from './consent-scope.ts'
import { folderChoices } from '../account/app-scopes.ts'
import { renderAccessChoice, type AccessKind } from '../http/access-choice-form.ts'
import { readAccessChoice, describeFolders } from '../policy/app-scope.ts'
import { SEPARATOR } from '../lib/separator.ts'

type OpDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'appScopes'>

const EXPIRED = 'this authorization request is unknown or older than 10 minutes; go back to the application and sign in again'

/** Only images we allow by CSP and links that are web pages (no javascript: URLs). */

/**
 * An app served over plain http (only allowed on loopback, for development) has no certificate and no
 * published Client ID Document anyone could check: whatever runs on this computer can use that name.
 */
function unverifiedWarning(clientId: string, redirectUri: string) {
  const http = [clientId, redirectUri].find(u => URL.canParse(u) && new URL(u).protocol === 'http:')
  if (!http) return undefined
  return html`<div class="warning" role="note"><p><strong>Unverified application.</strong> It runs at <code>${new URL(http).origin}</code>
on this computer, over plain http, so the pod cannot check who made it. Allow it only if you started it yourself.</p></div>`
}

/** What the page proposes: only who the owner is, the folders the app names, or (naming nothing) everything. */
const proposedAccess = (i: Interaction, proposedFolders: number): AccessKind => (i.request.identityOnly ? 'identity' : proposedFolders > 0 ? 'folders' : 'full')

export function makeConsent(deps: OpDeps) {
  const { cfg, store } = deps
  const toLogin = (i: Interaction) => new Response(null, { status: 303, headers: { location: `${cfg.baseUrl}${OP_PATHS.login}?interaction=${i.id}` } })

  async function showConsent(query: Record<string, unknown>, cookieHeader: string | null): Promise<Response> {
    const now = deps.now()
    const i = await getInteraction(store, query.interaction, now)
    if (!i) return renderGoneInteraction(store, query.interaction, now, OP_PATHS.consent, EXPIRED)
    const session = await getLoginSession(store, cfg.baseUrl, cookieHeader, now)
    if (!session) return toLogin(i)
    const c = i.client
    const { token, setCookie } = csrfTokenFor(cookieHeader, cfg.baseUrl)
    const proposed = await proposedFolders(deps, i.request.wants ?? [])
    // A client that asks only who the person is (a friend's pod signing them in to see a share) is
    // not asking for access: the page says so from its first line
    const heading = i.request.identityOnly ? 'Confirm who you are?' : 'Allow access?'
    return renderPage(
      'consent.html',
      heading.slice(0, -1),
      {
        heading,
        csrf: token,
        interaction: i.id,
        webid: breakableUrl(session.webid),
        clientId: breakableUrl(c.clientId),
        clientName: c.clientName ?? c.clientId,
        // The name is next to it: alt="" and no fixed size keep a logo that fails to load from showing
        // clipped alt text or an empty frame (HTML §4.8.4.4: an image with empty alt is presentational).
        logo: isWebUrl(c.logoUri) ? html`<img src="${c.logoUri}" alt="">` : undefined,
        warning: unverifiedWarning(c.clientId, i.request.redirectUri),
        clientUri: isWebUrl(c.clientUri) ? html`${SEPARATOR}<a href="${c.clientUri}" rel="noopener noreferrer">${c.clientUri}</a>` : undefined,
        scopes: html`${i.request.scopes.map(s => html`<li><code>${s}</code>: ${SCOPE_DESCRIPTIONS[s] ?? s}</li>`)}`,
        // Least first: a client that asks only who the owner is gets that proposed (`identity` scope)
        access: renderAccessChoice(await folderChoices(store, proposed), proposedAccess(i, proposed.length)),
      },
      { headers: setCookie ? { 'set-cookie': setCookie } : {} },
    )
  }

  async function submitConsent(form: Record<string, unknown>, cookieHeader: string | null, origin: string | null): Promise<Response> {
    const now = deps.now()
    checkCsrf({ cookieHeader, sent: form.csrf, origin, baseUrl: cfg.baseUrl })
    const i = await getInteraction(store, form.interaction, now)
    if (!i) return renderGoneInteraction(store, form.interaction, now, OP_PATHS.consent, EXPIRED)
    const session = await getLoginSession(store, cfg.baseUrl, cookieHeader, now)
    if (!session) return toLogin(i)
    if (form.decision === 'deny') return denyAuthorization(deps, i)
    if (form.decision !== 'approve') throw badRequest('decision must be approve or deny')
    // Checked before anything is remembered: a bad folder changes nothing. A form without the choice
    // gets what the page would have proposed to a client that asked only who the owner is
    const folders = readAccessChoice(form, cfg.baseUrl, { absent: i.request.identityOnly ? 'identity' : 'full' })
    // The limit first: an app must never hold a consent without the limit the owner chose
    await deps.appScopes.set(i.request.clientId, folders, now)
    await saveConsent(store, {
      clientId: i.request.clientId,
      scopes: i.request.scopes,
      grantedAt: now,
      ...(i.client.clientName !== undefined ? { clientName: i.client.clientName } : {}),
      // Issue 13: the dashboard's list of approved apps shows the logo the consent page showed
      ...(isWebUrl(i.client.logoUri) ? { logoUri: i.client.logoUri } : {}),
    })
    log.info('op.consent_given', { clientId: i.request.clientId, webid: session.webid, access: folders ? describeFolders(folders) : 'full' })
    return continueAuthorization(deps, i, session, { consentGiven: true, status: 303 })
  }

  return { showConsent, submitConsent }
}
