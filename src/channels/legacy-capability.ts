// The `Updates-Via` URL of the legacy solid-0.1 protocol (rdflib, the SolidOS data browser): a browser cannot
// send credentials on a WebSocket, so the URL given to an authenticated reader carries who read — a
// capability MACed with a secret of this pod — and each `sub` on that socket is decided for that agent.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Store } from '../store/open-store.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import { LruCache } from '../lib/lru-cache.ts'
import type { ListenerPrincipal } from './listener.ts'

const SYSTEM_KEY = 'legacy-capability-key'
/**
 * How long an `Updates-Via` capability names its reader: rdflib opens the socket again with the same URL
 * after a disconnection, and a page reload reads a fresh one. Past it the socket is anonymous.
 */
export const CAPABILITY_LIFETIME_MS = 24 * 60 * 60_000
/** A capability is handed out again (not made anew) until this much of its life is left. */
const REISSUE_BEFORE_MS = CAPABILITY_LIFETIME_MS / 2
const ISSUED_KEPT = 10_000

/** What a capability says: the agent as authentication found it, and until when (epoch ms). */
interface Claims {
  readonly p: ListenerPrincipal
  readonly exp: number
}

const b64 = (b: Buffer) => b.toString('base64url')

export function makeLegacyCapabilities(deps: { readonly store: Store; readonly baseUrl: string; readonly now: () => number }) {
  const socketUrl = deps.baseUrl.replace(/^http/, 'ws') + NOTIFY_PATHS.legacy
  let secret: Promise<Buffer> | undefined
  const secretOf = () =>
    (secret ??= (async () => {
      let stored = (await deps.store.system.get(SYSTEM_KEY)) as string | undefined
      if (!stored) {
        stored = b64(randomBytes(32))
        await deps.store.system.put(SYSTEM_KEY, stored, { sync: true })
      }
      return Buffer.from(stored, 'base64url')
    })())
  const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest()
  const issued = new LruCache<string, { url: string; exp: number }>(ISSUED_KEPT)

  return {
    /** The Updates-Via value for an anonymous reader. */
    anonymousUrl: socketUrl,
    /** The Updates-Via value for a reader: the socket URL, with the reader's capability when they are not anonymous. */
    async updatesViaFor(p: ListenerPrincipal): Promise<string> {
      if (p.webid === undefined && p.keys.length === 0) return socketUrl
      const key = JSON.stringify(p)
      const at = deps.now()
      const hit = issued.get(key)
      if (hit && hit.exp - at > REISSUE_BEFORE_MS) return hit.url
      const claims: Claims = { p, exp: at + CAPABILITY_LIFETIME_MS }
      const payload = b64(Buffer.from(JSON.stringify(claims)))
      const url = `${socketUrl}?auth=${payload}.${b64(mac(await secretOf(), payload))}`
      issued.set(key, { url, exp: claims.exp })
      return url
    },
    /** The agent a capability names, or undefined (none, forged, expired): such a socket is anonymous. */
    async principalOf(capability: string | null): Promise<ListenerPrincipal | undefined> {
      if (!capability) return undefined
      const [payload, sig, extra] = capability.split('.')
      if (!payload || !sig || extra !== undefined) return undefined
      const expected = mac(await secretOf(), payload)
      const given = Buffer.from(sig, 'base64url')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      let claims: Claims
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims
      } catch {
        return undefined
      }
      if (typeof claims.exp !== 'number' || claims.exp <= deps.now() || typeof claims.p !== 'object' || !Array.isArray(claims.p.keys)) return undefined
      return claims.p
    },
  }
}

export type LegacyCapabilities = ReturnType<typeof makeLegacyCapabilities>
