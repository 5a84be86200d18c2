// The owner's no-script forms as a browser posts them: a pod with the owner signed in, the CSRF token
// the pages' forms carry, and the refusals every such form must give (no session, no or a wrong
// CSRF token, another origin), each with its exact status and code.

import { expect, test } from 'bun:test'
import { BASE, CookieJar, FORM, form, logIn, openTestPod, type TestPod } from '../op/op-fixture.ts'

export interface FormPod {
  readonly pod: TestPod
  readonly owner: CookieJar
  /** The token of the `csrf` field in the owner's pages (equal to the CSRF cookie). */
  readonly csrf: string
  post(path: string, fields: Record<string, string>, o?: { jar?: CookieJar; origin?: string }): Promise<Response>
}

export async function openFormPod(): Promise<FormPod> {
  const pod = await openTestPod()
  const owner = new CookieJar()
  await logIn(pod, owner)
  const page = await owner.take(await pod.request('/.admin/files', { headers: { cookie: owner.header() } })).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
  return {
    pod,
    owner,
    csrf,
    post: (path, fields, o = {}) =>
      pod.request(path, {
        method: 'POST',
        headers: { 'content-type': FORM, cookie: (o.jar ?? owner).header(), origin: o.origin ?? BASE },
        body: form(fields),
      }),
  }
}

/** The error code an error page shows. */
export const pageError = async (res: Response) => /id="error">([a-z_]+)</.exec(await res.text())?.[1]

/** Each form of `forms` ([path, fields without csrf]) refused without the owner, the CSRF token or our origin. */
export function testFormGuards(ctx: () => FormPod, forms: [string, Record<string, string>][]): void {
  test.each(forms)('%s without a session → 401 login_required', async (path, fields) => {
    const res = await ctx().post(path, { ...fields, csrf: ctx().csrf }, { jar: new CookieJar() })
    expect(res.status).toBe(401)
    expect(await pageError(res)).toBe('login_required')
  })
  test.each(forms)('%s without the CSRF token → 403 csrf_failed', async (path, fields) => {
    const res = await ctx().post(path, fields)
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
  })
  test.each(forms)('%s with a wrong CSRF token → 403 csrf_failed', async (path, fields) => {
    const res = await ctx().post(path, { ...fields, csrf: 'x'.repeat(43) })
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
  })
  test.each(forms)('%s from another origin → 403 csrf_failed', async (path, fields) => {
    const res = await ctx().post(path, { ...fields, csrf: ctx().csrf }, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await pageError(res)).toBe('csrf_failed')
  })
}

/** The owner API's guard on `routes` ([method, path]): no session → 401 login_required, another origin → 403 csrf_failed (JSON refusals). */
export function testApiGuards(
  call: (method: string, path: string, o: { jar?: CookieJar; origin?: string }) => Promise<Response>,
  routes: [string, string][],
): void {
  const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error
  test.each(routes)('%s %s without a session cookie → 401 login_required', async (method, path) => {
    const res = await call(method, path, { jar: new CookieJar() })
    expect(res.status).toBe(401)
    expect(await errorOf(res)).toBe('login_required')
  })
  test.each(routes)('%s %s from another origin → 403 csrf_failed', async (method, path) => {
    const res = await call(method, path, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await errorOf(res)).toBe('csrf_failed')
  })
}
