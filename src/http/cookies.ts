// Reading the Cookie header and writing Set-Cookie values (RFC 6265bis), without a framework.

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number
  readonly sameSite: 'Strict' | 'Lax'
  /** Set under https: the cookie never travels over plain http. */
  readonly secure: boolean
}

/** name → value of every cookie in a Cookie header; the first occurrence of a name wins. */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
    if (name && !out.has(name)) out.set(name, value)
  }
  return out
}

/** Always HttpOnly and Path=/: our cookies are never for scripts and belong to the whole origin. */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return [`${name}=${value}`, 'Path=/', `Max-Age=${o.maxAge}`, 'HttpOnly', `SameSite=${o.sameSite}`, ...(o.secure ? ['Secure'] : [])].join('; ')
}

/**
 * RFC 6265bis §4.1.3.2: a `__Host-` cookie is only accepted when Secure, with Path=/ and no Domain,
 * so a sibling subdomain cannot plant it. The prefix needs https; over http the plain name is used.
 */
export const cookieName = (base: string, secure: boolean) => (secure ? `__Host-${base}` : base)
