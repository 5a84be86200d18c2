// A visitor's browser over real HTTP, signing in at a pod with an account on a Community Solid Server: the pod's
// sign-in page, then CSS 7's own login and consent pages done as their scripts do them (CSS's pages are
// JavaScript over its account JSON API: `controls.oidc.prompt` says which step is next, the password login and
// the consent are JSON POSTs answering `{ location }` to go to), then back to the pod with the code.

import { CookieJar } from '../op/op-fixture.ts'
import type { RunningPod } from './start-server.ts'
import type { CssAccount, RunningCss } from './css-server.ts'
import { browse, postForm } from './visitor-client.ts'

const HOPS_MAX = 12

type Controls = Record<string, Record<string, string>>

/** What CSS's pages call `fetchJson` / `postJson` (templates/scripts/util.js): JSON in and out, the browser's cookies. */
async function cssJson(jar: CookieJar, url: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const headers = { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) }
  const res = await browse(jar, url, body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`CSS ${body ? 'POST' : 'GET'} ${url}: ${res.status} ${text.slice(0, 500)}`)
  return JSON.parse(text) as Record<string, unknown>
}

const locationOf = (json: Record<string, unknown>, what: string): string => {
  if (typeof json.location !== 'string') throw new Error(`CSS answered ${what} without a location: ${JSON.stringify(json).slice(0, 500)}`)
  return json.location
}

/**
 * The browser going to `url` and following redirects: either the pod's answer, once a redirect leads back to
 * the pod (the pod's callback, then the pod's 303 to the visitor's page is not followed), or CSS's page.
 */
async function navigate(jar: CookieJar, pod: RunningPod, url: string, tamper?: (answer: URL) => void): Promise<{ atPod: Response } | { page: string }> {
  for (let hop = 0; hop < HOPS_MAX; hop++) {
    const target = new URL(url)
    if (target.origin === pod.baseUrl) {
      tamper?.(target)
      return { atPod: await browse(jar, target.href) }
    }
    const res = await browse(jar, url, { headers: { accept: 'text/html' } })
    const location = res.headers.get('location')
    if (res.status < 300 || res.status >= 400 || !location) {
      if (res.status !== 200) throw new Error(`CSS page ${url}: ${res.status} ${(await res.text()).slice(0, 500)}`)
      return { page: url }
    }
    url = new URL(location, url).href
  }
  throw new Error('too many redirects in the visitor sign-in at CSS')
}

export interface CssSignInOptions {
  /** What the visitor types at the pod: the CSS WebID unless told. */
  readonly who?: string
  readonly returnTo?: string
  /** The visitor presses CSS's "Cancel" instead of "Authorize" (templates/identity/oidc/consent.html.ejs). */
  readonly decline?: boolean
  /** Changes CSS's answer (the redirect to the pod's callback) on its way to the pod: an attacker's or a broken provider's. */
  readonly tamper?: (answer: URL) => void
}

/**
 * The whole sign-in: the pod's sign-in page with `who` typed, CSS's login with the account's password and its
 * consent, back to the pod. Returns the pod's last answer (a 303 to the visitor's page, or a refusal page).
 */
export async function signInWithCss(pod: RunningPod, css: RunningCss, account: CssAccount, jar: CookieJar, o: CssSignInOptions = {}): Promise<Response> {
  const returnTo = o.returnTo ?? '/'
  const signInUrl = `${pod.baseUrl}/.visitor/sign-in?return=${encodeURIComponent(returnTo)}`
  const page = await (await browse(jar, signInUrl)).text()
  const started = await postForm(jar, signInUrl, page, '/.visitor/sign-in', { return: returnTo, who: o.who ?? account.webId })
  const to = started.headers.get('location')
  if (started.status !== 303 || !to || !to.startsWith(css.baseUrl)) return started
  let at = await navigate(jar, pod, to, o.tamper)
  for (let step = 0; step < 4; step++) {
    if ('atPod' in at) return at.atPod
    // CSS's pages all start so (templates/identity/index.html.ejs): the controls, then the interaction's next step
    const controls = (await cssJson(jar, `${css.baseUrl}.account/`)).controls as Controls
    const prompt = await cssJson(jar, controls.oidc!.prompt!)
    await navigate(jar, pod, locationOf(prompt, 'the prompt'))
    if (prompt.prompt === 'account') {
      // templates/identity/password/login.html.ejs
      const login = await cssJson(jar, controls.password!.login!, { email: account.email, password: account.password, remember: false })
      at = await navigate(jar, pod, locationOf(login, 'the password login'), o.tamper)
    } else if (prompt.prompt === 'login' || prompt.prompt === 'consent') {
      // templates/identity/oidc/consent.html.ejs: pick the WebID (its location updates the interaction), then consent
      const picked = await cssJson(jar, controls.oidc!.webId!, { webId: account.webId })
      if ('atPod' in (await navigate(jar, pod, locationOf(picked, 'the WebID pick')))) throw new Error('CSS left the interaction before the consent')
      const answer = o.decline ? await cssJson(jar, controls.oidc!.cancel!, {}) : await cssJson(jar, controls.oidc!.consent!, { remember: true })
      at = await navigate(jar, pod, locationOf(answer, o.decline ? 'the cancel' : 'the consent'), o.tamper)
    } else {
      throw new Error(`CSS asks for an unknown step: ${JSON.stringify(prompt)}`)
    }
  }
  if ('atPod' in at) return at.atPod
  throw new Error('the sign-in at CSS did not come back to the pod')
}
