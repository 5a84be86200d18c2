// HTTP Basic (RFC 7617) for a mounted drive: a phone's Files app, Finder, Explorer, rclone or davfs2 sends one of the
// owner's client credentials (account/client-credentials.ts) as user name and password on every request. It acts
// as the owner within the credential's folders (the decider applies them, policy/app-scope.ts), and a removed
// credential is refused on its next request: the record is read every time.
//
// Wrong passwords cost the guesser, never the owner (as the login, op/login.ts): 10 per client address in 15
// minutes, then 429 with a wait that doubles each time (up to a day); 50 per credential from everywhere, past which a
// wrong password is 429 too, while the right one still passes. A secret is 256 random bits, so the limits are
// there for the logs and the load, not because a guess could succeed.

import type { Authenticate } from './authenticate.ts'
import type { Principal } from './principal.ts'
import { basicChallenge } from './challenges.ts'
import { HttpError } from '../http/errors.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import type { ClientAddresses } from '../http/client-address.ts'
import type { Store } from '../store/open-store.ts'
import type { ClientId, WebId } from '../account/ids.ts'
import { getClientCredential, isCredentialSecretValid, touchClientCredential } from '../account/client-credentials.ts'
import { addressBlock, isLoopback } from '../lib/ip-address.ts'
import { ownerWebIdOf } from '../config.ts'
import { log } from '../log.ts'

export const BASIC_LIMITS = {
  perAddress: { max: 10, windowMs: 15 * 60_000, maxWindowMs: 24 * 3600_000 },
  perCredential: { max: 50, windowMs: 15 * 60_000 },
}
/** "Last used" on the Scripts and bots page is kept to the hour: a mount sends a request per file. */
const TOUCH_EVERY_MS = 3600_000

export interface BasicCredentialDeps {
  readonly baseUrl: string
  readonly store: Store
  readonly now: () => number
  readonly clientAddresses: Pick<ClientAddresses, 'of'>
}

const refuse = (description: string) => new HttpError(401, 'invalid_credentials', description, { headers: { 'www-authenticate': basicChallenge() } })
const tooMany = (wait: number) =>
  new HttpError(429, 'too_many_attempts', `too many wrong passwords; wait ${Math.ceil(wait / 60)} minute(s) and try again`, {
    headers: { 'retry-after': String(wait) },
  })

/** RFC 7617 §2: user-id ":" password, UTF-8 (§2.1, the charset we announce); undefined when it is not that. */
function decodeBasic(token: string): { id: string; secret: string } | undefined {
  if (!/^[A-Za-z0-9+/]+=*$/.test(token)) return undefined
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(token, 'base64'))
  } catch {
    return undefined
  }
  const colon = text.indexOf(':')
  return colon < 0 ? undefined : { id: text.slice(0, colon), secret: text.slice(colon + 1) }
}

/** The host the pod is reached at is this machine: Basic may travel there in the clear. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host.endsWith('.localhost') || isLoopback(host)
}

/** Basic with a client credential, else `inner` (DPoP, HttpSig, cookies …). */
export function withBasicCredential(inner: Authenticate, deps: BasicCredentialDeps): Authenticate {
  const base = new URL(deps.baseUrl)
  // A base URL on https, or on this machine: otherwise the password would cross the network in the clear
  const safeTransport = base.protocol === 'https:' || isLoopbackHost(base.hostname)
  const owner = ownerWebIdOf(deps.baseUrl) as WebId
  const byAddress = new FailureLimiter(BASIC_LIMITS.perAddress)
  const byCredential = new FailureLimiter(BASIC_LIMITS.perCredential)

  return async request => {
    const header = request.headers.get('authorization')?.trim()
    if (header === undefined || !/^basic(?: |$)/i.test(header)) return inner(request)
    if (!safeTransport) {
      throw new HttpError(
        403,
        'basic_over_http',
        `this pod is served over plain http at ${base.host}: a password sent with HTTP Basic would cross the network readable by anyone on the way; serve the pod over HTTPS (--domain or --tls-cert) to mount it`,
      )
    }
    const now = deps.now()
    const address = deps.clientAddresses.of(request)
    const key = address === undefined ? undefined : addressBlock(address)
    // Counted before the check, so concurrent guesses cannot overtake the limit; the right password gives it back
    const wait = key === undefined ? 0 : byAddress.begin(key, now)
    if (wait > 0) throw tooMany(wait)
    const basic = decodeBasic(header.slice(5).trim())
    const credential = basic && (await getClientCredential(deps.store, basic.id, now))
    if (!basic || !credential || !isCredentialSecretValid(credential, basic.secret)) {
      const clientWait = basic ? byCredential.retryAfter(basic.id, now) : 0
      if (basic) byCredential.recordFailure(basic.id, now)
      log.warn('auth.basic_failed', { clientId: credential?.clientId })
      if (clientWait > 0) throw tooMany(clientWait)
      throw refuse(
        "the user name must be a client credential's client_id and the password its client_secret (the dashboard's Scripts and bots page, or solopod clients add)",
      )
    }
    if (key !== undefined) byAddress.forgive(key, now)
    if ((credential.lastUsedAt ?? 0) + TOUCH_EVERY_MS <= now) await touchClientCredential(deps.store, credential.clientId, now)
    const principal: Principal = { webid: owner, clientId: credential.clientId as ClientId, issuer: deps.baseUrl, keys: [], scheme: 'Basic' }
    return principal
  }
}
