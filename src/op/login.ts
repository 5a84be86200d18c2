// The password login page: CSRF-checked, rate-limited per client address and per account.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { breakableUrl, html, problemBox, renderErrorPage, renderPage } from '../http/html-page.ts'
import { FIRST_RUN_NEXT, NEW_SETUP_LINK_HINT } from '../http/owner-help.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { getOwnerAccount, verifyOwnerPassword } from '../account/owner-account.ts'
import { createLoginSession, endLoginSession } from '../account/owner-session.ts'
import { log } from '../log.ts'
import { continueAuthorization } from './authorize.ts'
import { getInteraction, markLoggedIn, renderGoneInteraction, type Interaction } from './interactions.ts'
import { ADMIN_PATHS, OP_PATHS } from '../http/pod-paths.ts'

type OpDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'metrics'>

/** Failures allowed per 15 minutes: per client address, and for the one account from everywhere. */
export const LOGIN_LIMITS = { perAddress: { max: 10, windowMs: 15 * 60_000 }, perAccount: { max: 50, windowMs: 15 * 60_000 } }
const ACCOUNT = 'owner'

export interface LoginFacts {
  readonly form: Record<string, unknown>
  readonly cookieHeader: string | null
  readonly origin: string | null
  /** Peer address; undefined when unknown (then only the per-account limit applies). */
  readonly address: string | undefined
  readonly userAgent: string | null
}

const EXPIRED = 'this sign-in request is unknown or older than 10 minutes; go back to the application and sign in again'

/** Only the owner's own pages are places to return to (no open redirect); by default the dashboard. */
const safeReturn = (v: unknown) => (typeof v === 'string' && /^\/\.admin\/[\w./-]*$/.test(v) && !v.includes('//') && !v.includes('..') ? v : ADMIN_PATHS.dashboard)

export function makeLogin(deps: OpDeps) {
  const { cfg, store } = deps
  const byAddress = new FailureLimiter(LOGIN_LIMITS.perAddress)
  const byAccount = new FailureLimiter(LOGIN_LIMITS.perAccount)

  async function page(interaction: Interaction | undefined, returnTo: string, cookieHeader: string | null, problem?: HttpError): Promise<Response> {
    const account = await getOwnerAccount(store)
    const { token, setCookie } = csrfTokenFor(cookieHeader, cfg.baseUrl)
    const name = interaction ? interaction.client.clientName ?? interaction.client.clientId : undefined
    const vars = {
      csrf: token, interaction: interaction?.id ?? '', returnTo, webidHtml: breakableUrl(account?.webid ?? ''),
      context: name ? html`<p>to continue to <strong>${name}</strong></p>` : undefined,
      problem: problem ? problemBox(problem) : undefined,
      newLinkHint: NEW_SETUP_LINK_HINT,
    }
    // Before the first password there is nothing to type: say where the setup link is instead of a form that cannot work.
    return renderPage(account?.passwordHash ? 'login.html' : 'login-setup-needed.html', 'Sign in', vars, { status: problem?.status ?? 200, headers: { ...problem?.headers, ...(setCookie ? { 'set-cookie': setCookie } : {}) } })
  }

  async function showLogin(query: Record<string, unknown>, cookieHeader: string | null): Promise<Response> {
    let interaction: Interaction | undefined
    if (query.interaction !== undefined) {
      interaction = await getInteraction(store, query.interaction, deps.now())
      if (!interaction) return renderGoneInteraction(store, query.interaction, deps.now(), OP_PATHS.login, EXPIRED)
    }
    return page(interaction, safeReturn(query.return), cookieHeader)
  }

  async function submitLogin(f: LoginFacts): Promise<Response> {
    const now = deps.now()
    checkCsrf({ cookieHeader: f.cookieHeader, sent: f.form.csrf, origin: f.origin, baseUrl: cfg.baseUrl })
    let interaction: Interaction | undefined
    if (typeof f.form.interaction === 'string' && f.form.interaction !== '') {
      interaction = await getInteraction(store, f.form.interaction, now)
      if (!interaction) return renderGoneInteraction(store, f.form.interaction, now, OP_PATHS.login, EXPIRED)
    }
    const returnTo = safeReturn(f.form.return)
    // Counted before the password check (which takes a while): concurrent guesses cannot overtake the limit.
    const addressWait = f.address ? byAddress.begin(f.address, now) : 0
    const wait = addressWait || byAccount.begin(ACCOUNT, now)
    if (wait > 0) {
      // counted for the address, then refused by the account's limit: not an attempt after all
      if (f.address && addressWait === 0) byAddress.forgive(f.address, now)
      log.warn('op.login_throttled', { retryAfter: wait })
      throw new HttpError(429, 'too_many_attempts', `too many wrong passwords; wait ${Math.ceil(wait / 60)} minute(s) and try again`, { headers: { 'retry-after': String(wait) } })
    }
    const forgive = () => {
      if (f.address) byAddress.forgive(f.address, now)
      byAccount.forgive(ACCOUNT, now)
    }
    const account = await getOwnerAccount(store)
    if (!account?.passwordHash) {
      forgive()
      return renderErrorPage(OP_PATHS.login, new HttpError(403, 'setup_required', "the owner's password is not set yet; open the setup link the server printed at start"), FIRST_RUN_NEXT)
    }
    const password = f.form.password
    if (typeof password !== 'string' || password === '' || password.length > 1024 || !await verifyOwnerPassword(store, password)) {
      log.warn('op.login_failed', { webid: account.webid })
      deps.metrics.recordLoginFailure()
      return page(interaction, returnTo, f.cookieHeader, new HttpError(401, 'invalid_credentials', 'the password is wrong; type the pod owner\'s password'))
    }
    byAccount.forgive(ACCOUNT, now)
    if (f.address) byAddress.reset(f.address)
    // A new cookie on every login (no session fixation); the browser's previous session ends
    await endLoginSession(store, cfg.baseUrl, f.cookieHeader)
    const { session, setCookie } = await createLoginSession(store, cfg.baseUrl, account.webid, f.userAgent, now)
    log.info('op.login', { webid: account.webid })
    const next = interaction
      ? await continueAuthorization(deps, await markLoggedIn(store, interaction, session.id), session, { status: 303 })
      : new Response(null, { status: 303, headers: { location: cfg.baseUrl + returnTo } })
    next.headers.append('set-cookie', setCookie)
    return next
  }

  return { showLogin, submitLogin, loginPage: page }
}
