// The owner changes the password in the dashboard (the profile page's form and the owner API): the current
// password first, the new one twice, the length `solopod passwd` requires. As `passwd` does, every other
// browser login ends with the app sessions it approved; the browser that changed it stays signed in.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { log } from '../log.ts'
import { setOwnerPassword, verifyOwnerPassword } from '../account/owner-account.ts'
import { endOwnerLogins, type LoginSession } from '../account/owner-session.ts'
import { MAX_PASSWORD_LENGTH, checkPasswordStrength } from '../lib/password-rules.ts'
import { countOf } from '../lib/count-words.ts'

type AdminDeps = Pick<Deps, 'store' | 'revocations' | 'now'>

export interface PasswordChanged {
  readonly loginsEnded: number
  readonly appSessionsEnded: number
}

/**
 * Wrong current passwords per login session: whoever holds a stolen session cookie must not be able to
 * guess the password here faster than on the login page.
 */
export const WRONG_PASSWORD_LIMIT = { max: 5, windowMs: 15 * 60_000 }

const text = (v: unknown) => (typeof v === 'string' ? v : '')

export function makePasswordChange(deps: AdminDeps) {
  const wrongTries = new FailureLimiter(WRONG_PASSWORD_LIMIT)

  /** Checks in the order a person fixes them; any refusal changes nothing. The passwords are never logged. */
  return async function changeOwnerPassword(session: LoginSession, fields: Record<string, unknown>): Promise<PasswordChanged> {
    const now = deps.now()
    // Counted before the (slow) check, so attempts sent at once cannot all pass the limit
    const wait = wrongTries.begin(session.id, now)
    if (wait > 0) {
      throw new HttpError(429, 'too_many_attempts', `too many wrong passwords; wait ${countOf(Math.ceil(wait / 60), 'minute')} and try again`, {
        headers: { 'retry-after': String(wait) },
      })
    }
    const current = text(fields.current)
    if (current === '' || current.length > MAX_PASSWORD_LENGTH || !(await verifyOwnerPassword(deps.store, current))) {
      log.warn('admin.password_change_refused', { webid: session.webid })
      throw new HttpError(403, 'wrong_current_password', 'the current password is wrong; type the password you signed in with')
    }
    wrongTries.forgive(session.id, now)
    const password = text(fields.password)
    if (password !== text(fields.confirm)) throw new HttpError(400, 'passwords_differ', 'the two new passwords differ; type the same new password twice')
    const weak = checkPasswordStrength(password)
    if (weak) throw new HttpError(400, 'weak_password', weak)
    await setOwnerPassword(deps.store, password)
    const { logins, appSessions } = await endOwnerLogins(deps.store, deps.revocations, now, session.id)
    log.info('admin.password_changed', { loginsEnded: logins, appSessionsEnded: appSessions })
    return { loginsEnded: logins, appSessionsEnded: appSessions }
  }
}
