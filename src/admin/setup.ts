// /.admin/setup: the one-time link that sets the owner's password (account/owner-account.ts).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { breakableUrl, problemBox, renderErrorPage, renderMessagePage, renderPage, type NextSteps } from '../http/html-page.ts'
import { completeSetup, getOwnerAccount, isSetupTokenValid } from '../account/owner-account.ts'
import { MIN_PASSWORD_LENGTH, checkPasswordStrength } from '../lib/password-rules.ts'
import { endOwnerLogins } from '../account/owner-session.ts'
import { log } from '../log.ts'
import { FIRST_RUN_NEXT } from '../http/owner-help.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'revocations'>
const SETUP_PATH = ADMIN_PATHS.setup

const badLink = () => new HttpError(400, 'invalid_setup_token', 'this setup link is invalid, already used or expired (a link works once, for 7 days)')

/** A first-run page: no application is involved, the way on is a new link or signing in. */
export const SETUP_NEXT: NextSteps = { ...FIRST_RUN_NEXT, heading: 'This setup link does not work' }

export function makeSetup(deps: AdminDeps) {
  const { cfg, store } = deps

  async function form(token: string, cookieHeader: string | null, problem?: HttpError): Promise<Response> {
    const account = await getOwnerAccount(store)
    const { token: csrf, setCookie } = csrfTokenFor(cookieHeader, cfg.baseUrl)
    return renderPage(
      'setup.html',
      'Set password',
      {
        csrf,
        token,
        webid: breakableUrl(account?.webid ?? ''),
        minLength: MIN_PASSWORD_LENGTH,
        problem: problem ? problemBox(problem) : undefined,
      },
      { status: problem?.status ?? 200, headers: setCookie ? { 'set-cookie': setCookie } : {} },
    )
  }

  async function showSetup(token: unknown, cookieHeader: string | null): Promise<Response> {
    if (typeof token !== 'string' || !(await isSetupTokenValid(store, token, deps.now()))) return renderErrorPage(SETUP_PATH, badLink(), SETUP_NEXT)
    return form(token, cookieHeader)
  }

  async function submitSetup(f: Record<string, unknown>, cookieHeader: string | null, origin: string | null): Promise<Response> {
    checkCsrf({ cookieHeader, sent: f.csrf, origin, baseUrl: cfg.baseUrl })
    const token = f.token
    if (typeof token !== 'string' || !(await isSetupTokenValid(store, token, deps.now()))) throw badLink()
    const { password, confirm } = f
    if (typeof password !== 'string' || password !== confirm)
      return form(token, cookieHeader, new HttpError(400, 'passwords_differ', 'the two passwords differ; type the same password twice'))
    const weak = checkPasswordStrength(password)
    if (weak) return form(token, cookieHeader, new HttpError(400, 'weak_password', weak))
    const now = deps.now()
    await completeSetup(store, token, password, now)
    const { logins, appSessions } = await endOwnerLogins(store, deps.revocations, now)
    log.info('admin.password_set', { loginsEnded: logins, appSessionsEnded: appSessions })
    const ended =
      logins === 0
        ? ''
        : ` Every browser signed in with the old password is signed out (${logins}), and the app sessions they approved have ended (${appSessions}).`
    return renderMessagePage('Password set', `The owner's password is set. Applications can now sign you in with your WebID.${ended}`, {
      href: loginPageFor(ADMIN_PATHS.dashboard),
      label: 'Sign in',
    })
  }

  return { showSetup, submitSetup }
}
