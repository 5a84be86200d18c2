// CSRF defence for the pod's HTML forms and owner API: a double-submit token plus the Origin check.

import { timingSafeEqual } from 'node:crypto'
import { HttpError } from './errors.ts'
import { cookieName, parseCookies, serializeCookie } from './cookies.ts'

const CSRF_COOKIE = 'solopod_csrf'
const TOKEN = /^[A-Za-z0-9_-]{43}$/

export interface CsrfFacts {
  readonly cookieHeader: string | null | undefined
  /** The token the form (field `csrf`) or script (header `X-CSRF-Token`) sent back. */
  readonly sent: unknown
  readonly origin: string | null | undefined
  /** Our origin: cfg.baseUrl. */
  readonly baseUrl: string
}

const csrfError = (description: string) => new HttpError(403, 'csrf_failed', description)

export const csrfCookieName = (baseUrl: string) => cookieName(CSRF_COOKIE, baseUrl.startsWith('https:'))

/** The browser's CSRF token, or a fresh one with the Set-Cookie that stores it (SameSite=Strict). */
export function csrfTokenFor(cookieHeader: string | null | undefined, baseUrl: string): { token: string; setCookie?: string } {
  const name = csrfCookieName(baseUrl)
  const existing = parseCookies(cookieHeader).get(name)
  if (existing && TOKEN.test(existing)) return { token: existing }
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  return { token, setCookie: serializeCookie(name, token, { maxAge: 86_400, sameSite: 'Strict', secure: baseUrl.startsWith('https:') }) }
}

/**
 * Throws 403 `csrf_failed` unless the request comes from our own pages. OWASP CSRF cheat sheet:
 * the Origin header, when a browser sends one, must be ours (`null` is refused: sandboxed or
 * privacy-redirected contexts); and the sent token must equal the cookie (double submit), which
 * a cross-site page can neither read nor set.
 */
export function checkCsrf(f: CsrfFacts): void {
  if (f.origin != null && f.origin !== f.baseUrl)
    throw csrfError(`the request came from ${f.origin === 'null' ? 'an opaque origin' : f.origin}; only pages of ${f.baseUrl} may send it`)
  const cookie = parseCookies(f.cookieHeader).get(csrfCookieName(f.baseUrl))
  if (!cookie || !TOKEN.test(cookie)) throw csrfError('the CSRF cookie is missing: reload the page (cookies must be enabled) and submit the form again')
  if (typeof f.sent !== 'string' || f.sent.length !== cookie.length)
    throw csrfError('the CSRF token is missing or wrong: reload the page and submit the form again')
  if (!timingSafeEqual(Buffer.from(f.sent), Buffer.from(cookie)))
    throw csrfError('the CSRF token is missing or wrong: reload the page and submit the form again')
}

/** Read-only owner API: a browser page on another origin may not read it (our CORS echoes any origin). */
export function checkSameOrigin(origin: string | null | undefined, baseUrl: string): void {
  if (origin != null && origin !== baseUrl) throw csrfError(`the request came from ${origin}; only pages of ${baseUrl} may use the owner API`)
}
