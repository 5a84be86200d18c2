// The owner signed in to a running pod with the password startPod gave it: a cookie jar for the dashboard, the
// CSRF token its forms and owner API need, and the page/form requests the dashboard's tests make with them.

import { expect } from 'bun:test'
import { CookieJar, FORM, field, form } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, type RunningPod } from './start-server.ts'

export async function ownerSignedIn(pod: RunningPod): Promise<CookieJar> {
  const owner = new CookieJar()
  const url = `${pod.baseUrl}/.oidc/login`
  const login = await owner.take(await fetch(url)).text()
  const res = owner.take(
    await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, cookie: owner.header(), origin: pod.baseUrl },
      body: form({ csrf: field(login, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
    }),
  )
  expect(res.status).toBeLessThan(400)
  return owner
}

/** The CSRF token of a signed-in browser's session (`baseUrl` without a trailing slash). */
export async function csrfToken(baseUrl: string, jar: CookieJar): Promise<string> {
  const res = jar.take(await fetch(`${baseUrl}/.admin/api/csrf`, { headers: { cookie: jar.header() } }))
  return ((await res.json()) as { token: string }).token
}

export interface OwnerForms {
  readonly jar: CookieJar
  readonly csrf: string
  /** An owner page, signed in (or `jar` another browser's cookies), redirects not followed. */
  page(path: string, jar?: CookieJar): Promise<Response>
  /** A dashboard form posted as a browser would, with the session's CSRF token unless `o.csrf` says another. */
  postForm(path: string, fields: Record<string, string>, o?: { csrf?: string }): Promise<Response>
}

/** The owner signed in, with the requests a test of the dashboard's pages and forms makes. */
export async function ownerForms(pod: RunningPod): Promise<OwnerForms> {
  const jar = await ownerSignedIn(pod)
  const csrf = await csrfToken(pod.baseUrl, jar)
  const url = (path: string) => pod.baseUrl + path
  return {
    jar,
    csrf,
    page: (path, other = jar) => fetch(url(path), { redirect: 'manual', headers: { cookie: other.header() } }).then(r => other.take(r)),
    postForm: (path, fields, o = {}) =>
      fetch(url(path), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': FORM, cookie: jar.header(), origin: pod.baseUrl },
        body: form({ csrf: o.csrf ?? csrf, ...fields }),
      }).then(r => jar.take(r)),
  }
}
