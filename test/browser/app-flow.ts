// Steps a person takes with the test app and the pod's pages, shared by the browser tests.

import type { BrowserContext, Page } from 'playwright-core'
import { OWNER_PASSWORD, screenshot, tabTo } from './harness.ts'
import type { TestApp } from './app-server.ts'

/** Opens the app in a new tab and waits until it has handled any incoming redirect. */
export async function openApp(context: BrowserContext, app: TestApp): Promise<Page> {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', err => problems.push(String(err)))
  page.on('console', m => {
    if (m.type() === 'error') problems.push(m.text())
  })
  await page.goto(`${app.origin}/`)
  try {
    await waitAppReady(page)
  } catch (err) {
    throw new Error(`the test app did not start: ${problems.join('; ') || String(err)}`)
  }
  return page
}

export const waitAppReady = (page: Page) => page.waitForSelector('body[data-ready="true"]', { state: 'attached' })

/** Types the provider into the app and clicks its login button (dynamic registration or Client ID Document). */
export async function clickLogIn(page: Page, issuer: string, how: 'dynamic' | 'client-id' = 'dynamic'): Promise<void> {
  await page.locator('#issuer').fill(issuer)
  await page.locator(how === 'dynamic' ? '#login' : '#login-cid').click()
}

export interface PodSteps {
  readonly pod: string
  readonly password?: string
  /** What to press on the consent page; 'remembered' asserts that no consent page comes. */
  readonly consent?: 'approve' | 'deny' | 'remembered'
  /** Screenshot names for the login and consent pages, when wanted. */
  readonly shots?: { login?: string; consent?: string }
  /**
   * On the consent page, "Allow access only to" these folders (readable paths), chosen as a person does:
   * a listed folder's select, else typed as "Another folder" (one). Absent: full access, the default.
   */
  readonly onlyFolders?: readonly { readonly path: string; readonly right: 'read' | 'write' }[]
}

/** On the pod: types the password (if asked) and answers the consent page (if shown) by keyboard or click. */
export async function answerPod(page: Page, s: PodSteps): Promise<void> {
  let at = await arrive(page, s.pod)
  if (at === 'login') {
    if (s.shots?.login) await screenshot(page, s.shots.login)
    await page.locator('#password').pressSequentially(s.password ?? OWNER_PASSWORD)
    const leaving = arrive(page, s.pod, true)
    await page.keyboard.press('Enter')
    at = await leaving
    await failOnPodError(page, s.pod)
  }
  if (s.consent === 'remembered') {
    if (at === 'consent') throw new Error('the consent page came again although the consent was remembered')
    return
  }
  if (at !== 'consent') return
  if (s.onlyFolders) await chooseFolders(page, s.onlyFolders)
  if (s.shots?.consent) await screenshot(page, s.shots.consent)
  const leaving = arrive(page, s.pod, true)
  if (s.consent === 'deny') await page.getByRole('button', { name: 'Deny' }).click()
  else {
    await tabTo(page, 'button[value="approve"]')
    await page.keyboard.press('Enter')
  }
  await leaving
  await failOnPodError(page, s.pod)
}

async function chooseFolders(page: Page, folders: NonNullable<PodSteps['onlyFolders']>): Promise<void> {
  await page.getByLabel('Allow access only to').check()
  for (const f of folders) {
    const listed = page.getByLabel(`Access to ${f.path}`, { exact: true })
    if ((await listed.count()) > 0) await listed.selectOption(f.right)
    else {
      await page.locator('#new-folder').fill(f.path)
      await page.locator('#new-right').selectOption(f.right)
    }
  }
}

/** A refusal page of the pod (it shows its error code in #error) fails the step with what it says. */
async function failOnPodError(page: Page, pod: string): Promise<void> {
  if (new URL(page.url()).origin !== pod || (await page.locator('#error').count()) === 0) return
  throw new Error(`the pod refused: ${await page.locator('#error').textContent()}: ${(await page.locator('main').innerText()).slice(0, 300)}`)
}

/**
 * Waits for the next stop of a login: the pod's login or consent page, an error page of the pod,
 * or the app's redirect URI with `code` or `error` (RFC 6749 §4.1.2). Redirects in between do not
 * count (they commit no page). `next`: only a navigation that starts after this call counts.
 */
export async function arrive(page: Page, pod: string, next = false): Promise<'login' | 'consent' | 'pod-page' | 'app'> {
  const isStop = (u: URL) => (u.origin === pod ? u.pathname !== '/.oidc/auth' : u.searchParams.has('code') || u.searchParams.has('error'))
  const current = new URL(page.url())
  if (!next && current.protocol !== 'about:' && isStop(current)) return classify(current, pod)
  const navigated = page.waitForEvent('framenavigated', f => f === page.mainFrame() && isStop(new URL(f.url())))
  // still on the app: if it reports a failure (e.g. a refused registration), say so now
  const appFailed =
    current.origin !== pod && (await page.locator('#error').count()) > 0
      ? page
          .waitForFunction(() => !document.getElementById('error')!.hidden, null, { timeout: 0 })
          .then(async () => {
            throw new Error(`the app reports: ${await page.locator('#error').textContent()}`)
          })
      : new Promise<never>(() => {})
  appFailed.catch(() => {})
  const frame = await Promise.race([navigated, appFailed])
  await page.waitForLoadState('domcontentloaded')
  return classify(new URL(frame.url()), pod)
}

function classify(u: URL, pod: string): 'login' | 'consent' | 'pod-page' | 'app' {
  if (u.origin !== pod) return 'app'
  return u.pathname === '/.oidc/login' ? 'login' : u.pathname === '/.oidc/consent' ? 'consent' : 'pod-page'
}

/** Waits until the app says it is logged in, and returns the WebID it shows. */
export async function waitLoggedIn(page: Page): Promise<string> {
  await waitAppReady(page)
  await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Logged in as '))
  return (await page.locator('#status').textContent())!.replace('Logged in as ', '')
}

/** Full login at `pod` through the app: click, password, consent. Returns the WebID. */
export async function logInThroughApp(page: Page, steps: PodSteps & { how?: 'dynamic' | 'client-id' }): Promise<string> {
  await clickLogIn(page, steps.pod, steps.how)
  await answerPod(page, steps)
  return waitLoggedIn(page)
}

/**
 * Runs `fn` in the app's page with its `window.testApp` (the app's steps, with its logged-in session).
 * `fn` is sent as source text, so it may use only its two parameters.
 */
export function runInApp<T>(page: Page, fn: (api: Window['testApp'], arg: any) => Promise<T> | T, arg?: unknown): Promise<T> {
  return page.evaluate(([f, x]) => new Function('api', 'x', `return (${f})(api, x)`)(window.testApp, x) as Promise<T>, [fn.toString(), arg] as const)
}
