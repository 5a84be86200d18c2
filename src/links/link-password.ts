// A share link's password (issue 38): asked after the token, so a link forwarded by mistake opens nothing alone.
// A browser types it once into a form and gets a session: a random id in a cookie scoped to the link's own path
// (`/.links/TOKEN/`: no other link and nothing else of the pod ever sees it), kept in memory only — bounded,
// ending with the link or after 12 hours, and with a restart. Other clients send it as HTTP Basic (any user
// name), over https or from the machine itself only: on plain http elsewhere it would cross the network readable.
//
// Wrong guesses cost the guesser (the rule of op/login.ts): per link and per client address (an IPv6 client by
// its /64), 10 wrong passwords in 15 minutes, then 429 until the window ends, its wait doubling each time it is
// used up again (up to a day). The right password is refused too while the wait lasts: otherwise the limit
// would tell a guesser which try was right. The password is never logged, never kept: only its argon2id hash.

import type { ShareLink } from '../account/share-links.ts'
import { HttpError } from '../http/errors.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { parseCookies } from '../http/cookies.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { randomBase64url } from '../lib/client-secret.ts'
import { addressBlock, isLoopback } from '../lib/ip-address.ts'
import { log } from '../log.ts'

export const LINK_PASSWORD_LIMITS = {
  perLink: { max: 10, windowMs: 15 * 60_000, maxWindowMs: 24 * 3600_000 },
  perAddress: { max: 10, windowMs: 15 * 60_000, maxWindowMs: 24 * 3600_000 },
}
const SESSION_MS = 12 * 3600_000
const MAX_SESSIONS = 10_000
export const LINK_COOKIE = 'solopod-link'
/** The form's field: a POST to the link carrying it is a password, never a file. */
export const PASSWORD_FIELD = 'link-password'

export interface PasswordAttempt {
  readonly link: ShareLink
  /** The link's own path, `/.links/TOKEN/`: the cookie's scope. */
  readonly base: string
  readonly address: string | undefined
  readonly https: boolean
}

export type Unlocked = { readonly ok: true; readonly setCookie?: string } | { readonly ok: false; readonly error: HttpError }

export function makeLinkPasswords(now: () => number) {
  const sessions = new LruCache<string, string>(MAX_SESSIONS)
  const byLink = new FailureLimiter(LINK_PASSWORD_LIMITS.perLink)
  const byAddress = new FailureLimiter(LINK_PASSWORD_LIMITS.perAddress)

  const tooMany = (wait: number) => {
    log.warn('link.password_throttled', { retryAfter: wait })
    return new HttpError(429, 'too_many_requests', `too many wrong passwords for this link; wait ${Math.ceil(wait / 60)} minute(s) and try again`, {
      headers: { 'retry-after': String(wait) },
    })
  }

  /** Compares a password within both limits; a right one is forgiven its count, a wrong one stays counted. */
  async function check(a: PasswordAttempt, password: string): Promise<HttpError | undefined> {
    const t = now()
    const addressKey = a.address !== undefined ? addressBlock(a.address) : undefined
    const wait = Math.max(byLink.retryAfter(a.link.id, t), addressKey !== undefined ? byAddress.retryAfter(addressKey, t) : 0)
    if (wait > 0) return tooMany(wait)
    byLink.recordFailure(a.link.id, t)
    if (addressKey !== undefined) byAddress.recordFailure(addressKey, t)
    if (await Bun.password.verify(password, a.link.passwordHash!)) {
      byLink.forgive(a.link.id, t)
      if (addressKey !== undefined) byAddress.forgive(addressKey, t)
      return undefined
    }
    log.info('link.password_wrong', { link: a.link.id })
    return new HttpError(401, 'link_password_wrong', 'that is not the password of this link', { headers: BASIC_CHALLENGE })
  }

  function cookieFor(a: PasswordAttempt): string {
    const id = randomBase64url(32)
    const t = now()
    const until = Math.min(t + SESSION_MS, a.link.expiresAt ?? Number.POSITIVE_INFINITY)
    sessions.set(id, a.link.id, until)
    const maxAge = Math.max(1, Math.floor((until - t) / 1000))
    return `${LINK_COOKIE}=${id}; Path=${a.base}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${a.https ? '; Secure' : ''}`
  }

  return {
    /** Whether the request may go on: a session of this link, or a right Basic password (over https or loopback). */
    async unlock(request: Request, a: PasswordAttempt): Promise<Unlocked> {
      const session = parseCookies(request.headers.get('cookie')).get(LINK_COOKIE)
      if (session !== undefined && sessions.get(session, now()) === a.link.id) return { ok: true }
      const basic = basicPassword(request.headers.get('authorization'))
      if (basic !== undefined) {
        if (!a.https && !(a.address !== undefined && isLoopback(a.address)))
          return {
            ok: false,
            error: new HttpError(401, 'link_password_required', 'send the password over https: on plain http it would cross the network readable'),
          }
        const error = await check(a, basic)
        return error ? { ok: false, error } : { ok: true }
      }
      return { ok: false, error: new HttpError(401, 'link_password_required', 'this link asks for a password too', { headers: BASIC_CHALLENGE }) }
    },
    /** The form's password: a session cookie when right. */
    async submit(a: PasswordAttempt, password: string): Promise<{ setCookie: string } | HttpError> {
      const error = await check(a, password)
      return error ?? { setCookie: cookieFor(a) }
    },
  }
}

export type LinkPasswords = ReturnType<typeof makeLinkPasswords>

const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="share link", charset="UTF-8"' }

function basicPassword(header: string | null): string | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')
  if (!m) return undefined
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? undefined : decoded.slice(colon + 1)
}
