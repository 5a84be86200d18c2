// An in-process pod at any base URL (https too: no TLS is needed in-process) with the owner signed in,
// and the owner API called as the dashboard calls it (session cookie, same origin, X-CSRF-Token).

import type { Store } from '../../src/store/open-store.ts'
import type { Deps, DepsOptions } from '../../src/deps.ts'
import { openTempPod } from '../temp-pod.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { CookieJar, FORM, PASSWORD, field, form } from '../op/op-fixture.ts'

export interface OwnerPod {
  readonly base: string
  readonly store: Store
  readonly deps: Deps
  readonly owner: CookieJar
  request(path: string, init?: RequestInit): Promise<Response>
  /** The owner API with the owner's session and CSRF token; `as` another browser's jar. */
  api(
    method: string,
    path: string,
    o?: { body?: unknown; raw?: string; type?: string; accept?: string; jar?: CookieJar; csrf?: boolean; origin?: string },
  ): Promise<Response>
  seed(path: string, turtle: string): Promise<void>
  close(): Promise<void>
}

/** `fetcher`: the guarded fetcher's test seams (the agents' "network"). */
export async function openOwnerPod(base: string, opts: DepsOptions = {}): Promise<OwnerPod> {
  const pod = await openTempPod('admin', base, [], { ...opts, ownerPassword: PASSWORD })
  const { store, deps, handle: handler } = pod
  const request = (path: string, init?: RequestInit) => handler(new Request(path.startsWith('http') ? path : base + path, init))
  const owner = new CookieJar()
  const page = await owner.take(await request('/.oidc/login')).text()
  const login = owner.take(
    await request('/.oidc/login', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: base },
      body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: PASSWORD }),
    }),
  )
  if (login.status >= 400) throw new Error(`owner login failed: ${login.status}`)
  const csrf = (await owner.take(await request('/.admin/api/csrf', { headers: { cookie: owner.header() } })).json()).token as string
  return {
    base,
    store,
    deps,
    owner,
    request,
    api: async (method, path, o = {}) => {
      const jar = o.jar ?? owner
      const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body))
      const res = await request(path, {
        method,
        headers: {
          cookie: jar.header(),
          ...(o.csrf === false ? {} : { 'x-csrf-token': csrf }),
          ...(o.origin ? { origin: o.origin } : {}),
          ...(o.accept ? { accept: o.accept } : {}),
          ...(body !== undefined ? { 'content-type': o.type ?? 'application/json' } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      })
      return jar.take(res)
    },
    seed: (path, turtle) => writeTurtle(store, base, path, turtle),
    close: pod.close,
  }
}
