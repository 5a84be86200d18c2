// Access control over a real store: the same deps the server builds, for deciding with principals made in the test.

import type { Deps } from '../../src/deps.ts'
import type { Store } from '../../src/store/open-store.ts'
import { makeAccessControl, type AccessControl } from '../../src/policy/access-control.ts'
import { challengeLinks } from '../../src/rs/resource-headers.ts'
import { HttpError } from '../../src/http/errors.ts'
import { requiredModes, type PatchNeeds } from '../../src/policy/modes.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { WebId } from '../../src/account/ids.ts'
import { seedTurtle } from '../rs/pod-fixture.ts'
import { openTempPod } from '../temp-pod.ts'

export const BASE = 'http://localhost:3999'

export const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix vcard: <http://www.w3.org/2006/vcard/ns#>. @prefix cert: <http://www.w3.org/ns/auth/cert#>.\n`

export const agent = (webid: string): Principal => ({ webid: webid as WebId, keys: [], scheme: 'DPoP' })
export const keyHolder = (...keys: string[]): Principal => ({ keys, scheme: 'HttpSig' })

export interface AccessPod {
  readonly store: Store
  readonly deps: Deps
  readonly access: AccessControl
  /** A controllable clock shared by the access control and its fetcher. */
  readonly clock: { t: number }
  seed(path: string, ttl: string): Promise<void>
  close(): Promise<void>
}

export async function openAccessPod(): Promise<AccessPod> {
  const clock = { t: Date.now() }
  const { store, deps, close } = await openTempPod('wac', BASE, [], { now: () => clock.t })
  return {
    store,
    deps,
    clock,
    access: makeAccessControl(deps),
    seed: (path, ttl) => seedTurtle(store, BASE, path, PREFIXES + ttl),
    close,
  }
}

export interface Ask {
  readonly method: string
  readonly path: string
  /** PUT/PATCH: does the target exist now? (default true) */
  readonly exists?: boolean
  /** PUT/PATCH creating: the missing containers the write would create. */
  readonly created?: readonly string[]
  readonly patch?: PatchNeeds
  readonly origin?: string
}

export interface Outcome {
  /** 200 when authorize() passed, else the status it threw. */
  readonly status: number
  readonly wacAllow: string
  readonly headers: Record<string, string | string[]>
}

/** One authorize() call as the RS makes it: required modes from the request facts, the deny links. */
export async function decide(access: AccessControl, who: Principal, ask: Ask): Promise<Outcome> {
  const url = BASE + ask.path
  const reqs = requiredModes({
    method: ask.method,
    url,
    exists: ask.exists ?? true,
    createdContainers: (ask.created ?? []).map(p => BASE + p),
    ...(ask.patch ? { patch: ask.patch } : {}),
  })
  try {
    const d = await access.authorize(who, url, reqs, ask.origin, challengeLinks(BASE, ask.path))
    return { status: 200, wacAllow: d.wacAllow, headers: {} }
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { status: err.status, wacAllow: String(err.headers['wac-allow']), headers: err.headers }
  }
}
