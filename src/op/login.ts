// The password login page: CSRF-checked, rate-limited per client address (or known device) and per account.
//
// The rule (docs/apps.md, "Logging in to Solid apps"): wrong guesses cost the guesser, never the owner.
// - Per client address (an IPv6 client by its /64, lib/ip-address.ts): 10 wrong passwords in 15 minutes,
//   then 429 until the window ends; each time the address uses up a window again, its wait doubles (up to a day). A browser the owner signed in from
//   before (a known-device cookie, account/known-devices.ts) has a limit of its own instead of its address's,
//   so a stranger behind the same address cannot lock it out either.
// - Per account: after 50 wrong passwords in 15 minutes from everywhere the account is under attack. The
//   password is still compared — argon2id's cost is the guesser's too, bounded by the per-address limit —
//   and the right one signs in; a wrong one from a device not known before is answered 429 too, not 401.
//   The per-account limit never refuses the right password (OWASP Authentication Cheat Sheet, "Account
//   lockout": a lockout strangers can trigger is a denial of service against the owner).
// - Unknown devices together: past 1,000 wrong passwords in 15 minutes from browsers without a known-device
//   cookie, such browsers are refused before the password is compared. Without this cap a guesser holding
//   many address blocks (an IPv6 /48 is 65,536 /64s) would have no bound at all; with it, the most strangers
//   can do is make a browser the owner never signed in from wait — the owner's known browsers are never
//   refused, existing sessions go on, and `solopod setup-link` on the machine always works (OWASP's
//   "device cookies": trust the devices the owner has used, limit the rest).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { breakableUrl, html, problemBox, renderErrorPage, renderPage } from '../http/html-page.ts'
import { logRefusal } from '../http/render-error.ts'
import { FIRST_RUN_NEXT, NEW_SETUP_LINK_HINT } from '../http/owner-help.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { getOwnerAccount, verifyOwnerPassword } from '../account/owner-account.ts'
import { createLoginSession, endLoginSession } from '../account/owner-session.ts'
import { getKnownDevice, rememberDevice } from '../account/known-devices.ts'
import { log } from '../log.ts'
import { continueAuthorization } from './authorize.ts'
import { getInteraction, markLoggedIn, renderGoneInteraction, type Interaction } from './interactions.ts'
import { ADMIN_PATHS, OP_PATHS } from '../http/pod-paths.ts'
import { addressBlock } from '../lib/ip-address.ts'

type OpDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'metrics'>

/**
 * Failures allowed per 15 minutes: per client address (or known device), the wait doubling each time it is
 * used up again (up to a day); and for the one account from everywhere, past which a wrong password is 429.
 */
export const LOGIN_LIMITS = {
  perAddress: { max: 10, windowMs: 15 * 60_000, maxWindowMs: 24 * 3600_000 },
  perAccount: { max: 50, windowMs: 15 * 60_000 },
  unknownDevices: { max: 1_000, windowMs: 15 * 60_000 },
}
const ACCOUNT = 'owner'

export interface LoginFacts {
  readonly form: Record<string, unknown>
  readonly cookieHeader: string | null
  readonly origin: string | null
  /** Client address; undefined when unknown (in-process requests: then only the per-account limit applies). */
  readonly address: string | undefined
  readonly userAgent: string | null
}

const tooManyAttempts = (wait: number) => {
  log.warn('op.login_throttled', { retryAfter: wait })
  return new HttpError(429, 'too_many_attempts', `too many wrong passwords; wait ${Math.ceil(wait / 60)} minute(s) and try again`, {
    headers: { 'retry-after': String(wait) },
  })
}

const EXPIRED = 'this sign-in request is unknown or older than 10 minutes; go back to the application and sign in again'

/** Only the owner's own pages are places to return to (no open redirect); by default the dashboard. */
const safeReturn = (v: unknown) =>
  typeof v === 'string' && /^\/\.admin\/[\w./-]*$/.test(v) && !v.includes('//') && !v.includes('..') ? v : ADMIN_PATHS.dashboard

export function makeLogin(deps: OpDeps) {
  const { cfg, store } = deps
  // keyed `address:…` or `device:…`: both are one client's attempts
  const byClient = new FailureLimiter(LOGIN_LIMITS.perAddress)
  const byAccount = new FailureLimiter(LOGIN_LIMITS.perAccount)
  const byUnknownDevices = new FailureLimiter(LOGIN_LIMITS.unknownDevices)

  async function page(interaction: Interaction | undefined, returnTo: string, cookieHeader: string | null, problem?: HttpError): Promise<Response> {
    const account = await getOwnerAccount(store)
    const { token, setCookie } = csrfTokenFor(cookieHeader, cfg.baseUrl)
    const name = interaction ? (interaction.client.clientName ?? interaction.client.clientId) : undefined
    const vars = {
      csrf: token,
      interaction: interaction?.id ?? '',
      returnTo,
      webidHtml: breakableUrl(account?.webid ?? ''),
      context: name ? html`<p>to continue to <strong>${name}</strong></p>` : undefined,
      problem: problem ? problemBox(problem) : undefined,
      newLinkHint: NEW_SETUP_LINK_HINT,
    }
    // Before the first password there is nothing to type: say where the setup link is instead of a form that cannot work.
    return renderPage(account?.passwordHash ? 'login.html' : 'login-setup-needed.html', 'Sign in', vars, {
      status: problem?.status ?? 200,
      headers: { ...problem?.headers, ...(setCookie ? { 'set-cookie': setCookie } : {}) },
    })
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
    // A known device is limited on its own, not by its address (which a stranger may share)
    const device = await getKnownDevice(store, cfg.baseUrl, f.cookieHeader, now)
    const key = device ? `device:${device.id}` : f.address !== undefined ? `address:${addressBlock(f.address)}` : undefined
    // Counted before the password check (which takes a while): concurrent guesses cannot overtake the limit.
    const wait = key !== undefined ? byClient.begin(key, now) : 0
    if (wait > 0) throw tooManyAttempts(wait)
    // Strangers' guesses together: past their cap a browser the owner never signed in from is not even compared
    const strangersWait = device ? 0 : byUnknownDevices.retryAfter(ACCOUNT, now)
    if (strangersWait > 0) {
      if (key !== undefined) byClient.forgive(key, now)
      throw tooManyAttempts(strangersWait)
    }
    // Past the account's limit, a wrong password is refused as one more attempt too many; the right one still signs in
    const accountWait = byAccount.retryAfter(ACCOUNT, now)
    const forgive = () => {
      if (key !== undefined) byClient.forgive(key, now)
    }
    const account = await getOwnerAccount(store)
    if (!account?.passwordHash) {
      forgive()
      return renderErrorPage(
        OP_PATHS.login,
        new HttpError(403, 'setup_required', "the owner's password is not set yet; open the setup link the server printed at start"),
        FIRST_RUN_NEXT,
      )
    }
    const password = f.form.password
    if (typeof password !== 'string' || password === '' || password.length > 1024 || !(await verifyOwnerPassword(store, password))) {
      byAccount.recordFailure(ACCOUNT, now)
      if (!device) byUnknownDevices.recordFailure(ACCOUNT, now)
      log.warn('op.login_failed', { webid: account.webid, knownDevice: device !== undefined })
      deps.metrics.recordLoginFailure()
      if (accountWait > 0 && !device) throw tooManyAttempts(Math.max(accountWait, key !== undefined ? byClient.retryAfter(key, now) : 0))
      const wrong = new HttpError(401, 'invalid_credentials', "the password is wrong; type the pod owner's password")
      // The page shows the refusal (its form again); it is logged as every refusal is
      logRefusal({ method: 'POST', path: OP_PATHS.login }, wrong)
      return page(interaction, returnTo, f.cookieHeader, wrong)
    }
    if (key !== undefined) byClient.reset(key)
    const rememberCookie = await rememberDevice(store, cfg.baseUrl, device, f.cookieHeader, now)
    // A new cookie on every login (no session fixation); the browser's previous session ends
    await endLoginSession(store, cfg.baseUrl, f.cookieHeader)
    const { session, setCookie } = await createLoginSession(store, cfg.baseUrl, account.webid, f.userAgent, now)
    log.info('op.login', { webid: account.webid })
    const next = interaction
      ? await continueAuthorization(deps, await markLoggedIn(store, interaction, session.id), session, { status: 303 })
      : new Response(null, { status: 303, headers: { location: cfg.baseUrl + returnTo } })
    next.headers.append('set-cookie', setCookie)
    next.headers.append('set-cookie', rememberCookie)
    return next
  }

  return { showLogin, submitLogin, loginPage: page }
}
