// A visitor's browser over real HTTP: signs in at pod A with the WebID of pod B (B's own login and
// consent pages), then reads A's visitor pages with the visitor cookie.

import { CookieJar, field, FORM } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, type RunningPod } from './start-server.ts'

export const browse = async (jar: CookieJar, url: string, init: RequestInit = {}) =>
  jar.take(await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } }))

/** The form fields of a page (its CSRF token, hidden fields) posted with `fields`, from the page's own origin. */
export async function postForm(jar: CookieJar, pageUrl: string, page: string, action: string, fields: Record<string, string>): Promise<Response> {
  const origin = new URL(pageUrl).origin
  return browse(jar, new URL(action, pageUrl).href, {
    method: 'POST',
    headers: { 'content-type': FORM, origin },
    body: new URLSearchParams({ csrf: field(page, 'csrf'), ...fields }),
  })
}

/** The visitor's sign-in box at `pod` with `who` typed, in a fresh browser: the pod's first answer (a 303 to the provider, or a refusal page). */
export async function typeIntoSignIn(pod: Pick<RunningPod, 'baseUrl'>, who: string, jar = new CookieJar()): Promise<Response> {
  const url = `${pod.baseUrl}/.visitor/sign-in`
  const page = await (await browse(jar, url)).text()
  return postForm(jar, url, page, '/.visitor/sign-in', { return: '/', who })
}

/** The value of the checked radio button named `name`, as a browser sends it (undefined: none checked). */
export const checkedRadio = (page: string, name: string) => new RegExp(`<input type="radio" name="${name}" value="([^"]*)" checked>`).exec(page)?.[1]

/** The consent page as seen, and the fields its form sends besides the CSRF token and the interaction. */
export type ConsentAnswer = (page: string) => Record<string, string>
/** "Allow" with what the page proposes checked, as a person who changes nothing does. */
export const allowAsProposed: ConsentAnswer = page => ({
  decision: 'approve',
  ...(checkedRadio(page, 'access') ? { access: checkedRadio(page, 'access')! } : {}),
})

/**
 * The whole sign-in: A's sign-in page, `who` typed, B's login (its owner's password) and consent pages,
 * back to A. Returns A's last answer (a 303 to the visitor's page, or a refusal page).
 */
export async function signInAsVisitor(
  podA: RunningPod,
  podB: RunningPod,
  jar: CookieJar,
  o: { who?: string; returnTo?: string; consent?: ConsentAnswer } = {},
): Promise<Response> {
  const signInUrl = `${podA.baseUrl}/.visitor/sign-in?return=${encodeURIComponent(o.returnTo ?? '/')}`
  const page = await (await browse(jar, signInUrl)).text()
  let res = await postForm(jar, signInUrl, page, '/.visitor/sign-in', { return: o.returnTo ?? '/', who: o.who ?? `${podB.baseUrl}/profile/card#me` })
  for (let hop = 0; hop < 8; hop++) {
    const location = res.headers.get('location')
    if (res.status !== 303 && res.status !== 302) return res
    const url = new URL(location!, res.url || podA.baseUrl)
    if (url.origin === podA.baseUrl) return browse(jar, url.href)
    const bPage = await (await browse(jar, url.href)).text()
    if (url.pathname === '/.oidc/login')
      res = await postForm(jar, url.href, bPage, '/.oidc/login', { interaction: field(bPage, 'interaction'), return: '', password: OWNER_PASSWORD })
    else if (url.pathname === '/.oidc/consent')
      res = await postForm(jar, url.href, bPage, '/.oidc/consent', { interaction: field(bPage, 'interaction'), ...(o.consent ?? allowAsProposed)(bPage) })
    else res = await browse(jar, url.href)
  }
  throw new Error('too many redirects in the visitor sign-in')
}
