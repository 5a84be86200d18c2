// A new owner's first hour in headless Chromium, at desktop and phone width, light and dark:
// first start, the setup link, the front door, sign in (wrong and right password), consent for an
// app, the sessions page, sign out. Every page: AA contrast of text on buttons and links, nothing
// wider than the screen, the card off the edges; screenshots in test-artifacts/browser/.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { DESKTOP, OWNER_PASSWORD, horizontalOverflow, newContext, screenshot, setupLink, startBrowserPod, type RunningPod } from './harness.ts'
import { cardMargins, contrastFailures, isSplitAcrossLines, lineCount, unstyledFields } from './page-checks.ts'
import { freePort } from '../e2e/start-server.ts'
import { s256Challenge } from '../../src/op/pkce.ts'

/** The width the issue was seen at (an iPhone 12–15 in CSS pixels). */
const PHONE = { width: 390, height: 844 } as const
const VERIFIER = 'first-hour-verifier-first-hour-verifier-0123456789'

const VARIANTS = [
  { name: 'desktop-light', viewport: DESKTOP, colorScheme: 'light' },
  { name: 'desktop-dark', viewport: DESKTOP, colorScheme: 'dark' },
  { name: 'phone-light', viewport: PHONE, colorScheme: 'light' },
  { name: 'phone-dark', viewport: PHONE, colorScheme: 'dark' },
] as const

describe.each(VARIANTS)('the first hour ($name)', ({ name, viewport, colorScheme }) => {
  let pod: RunningPod
  let context: BrowserContext
  let page: Page
  let appOrigin: string
  const phone = viewport.width === PHONE.width

  /** Screenshot, then the checks every page gets. */
  async function look(step: string) {
    await screenshot(page, `first-hour-${name}-${step}`)
    expect(await contrastFailures(page)).toEqual([])
    expect(await unstyledFields(page)).toEqual([])
    expect(await horizontalOverflow(page)).toBe(0)
    const margins = await cardMargins(page)
    expect(margins.left).toBeGreaterThanOrEqual(phone ? 12 : 24)
    expect(margins.right).toBeGreaterThanOrEqual(phone ? 12 : 24)
  }

  beforeAll(async () => {
    pod = await startBrowserPod({ withoutPassword: true })
    appOrigin = `http://localhost:${await freePort()}`
    context = await newContext({ viewport, colorScheme })
    // The app: its callback answers; its logo is missing (a logo that fails to load).
    await context.route(`${appOrigin}/**`, route =>
      new URL(route.request().url()).pathname === '/callback'
        ? route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>app</title><p>back in the app</p>' })
        : route.fulfill({ status: 404, body: '' }),
    )
    page = await context.newPage()
  })
  afterAll(async () => {
    await context?.close()
    await pod?.dispose()
  })

  test('first start: the front door says whose pod this is and where the setup link is', async () => {
    const res = await page.goto(`${pod.baseUrl}/`)
    expect(res?.status()).toBe(401)
    expect(await page.locator('h1').textContent()).toBe('A Solid pod')
    expect(await page.locator('a.webid').getAttribute('href')).toBe(`${pod.baseUrl}/profile/card#me`)
    expect(await page.locator('main').textContent()).toContain('printed in the terminal where the server was started')
    await look('front-door-first-start')
  })

  test('a wrong setup link explains itself and offers a way on (no "if an application sent you here")', async () => {
    const res = await page.goto(`${pod.baseUrl}/.admin/setup?token=not-a-token`)
    expect(res?.status()).toBe(400)
    const text = await page.locator('main').textContent()
    expect(text).toContain('This setup link is invalid, already used or expired')
    expect(text).not.toContain('If an application sent you here')
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(1)
    expect(await page.getByRole('link', { name: "The pod's front page" }).count()).toBe(1)
    await look('setup-link-invalid')
  })

  test('the setup link from the terminal sets the password', async () => {
    await page.goto(await setupLink(pod))
    await look('setup')
    await page.locator('#password').fill(OWNER_PASSWORD)
    await page.locator('#confirm').fill(OWNER_PASSWORD)
    await page.getByRole('button', { name: 'Set password' }).click()
    expect(await page.locator('h1').textContent()).toBe('Password set')
    await look('setup-done')
  })

  test('the front door now offers "Sign in"; a wrong password is told in a sentence, the code small', async () => {
    await page.goto(`${pod.baseUrl}/`)
    await look('front-door')
    await page.getByRole('link', { name: 'Sign in', exact: true }).click()
    await page.waitForURL(`${pod.baseUrl}/.oidc/login?return=/.admin/`)
    expect(await page.locator('details.forgot summary').textContent()).toBe('Forgot the password?')
    await page.locator('details.forgot summary').click()
    expect(await page.locator('details.forgot').textContent()).toContain('solopod setup-link')
    await look('login')
    await page.locator('#password').fill('not the password at all')
    await page.keyboard.press('Enter')
    await page.waitForLoadState()
    expect(await page.locator('.error p').first().textContent()).toBe("The password is wrong; type the pod owner's password.")
    expect(await page.locator('#error').textContent()).toBe('invalid_credentials')
    const [sentence, code] = await Promise.all(
      ['.error p:first-child', '.error .code'].map(s => page.locator(s).evaluate(el => parseFloat(getComputedStyle(el).fontSize))),
    )
    expect(code!).toBeLessThan(sentence!)
    await look('login-wrong-password')
  })

  test('the right password leads to the dashboard (issue 13), which links the sessions page', async () => {
    await page.locator('#password').fill(OWNER_PASSWORD)
    await page.keyboard.press('Enter')
    await page.waitForURL(`${pod.baseUrl}/.admin/`)
    await page.getByRole('heading', { name: 'Your files' }).waitFor()
    await page.goto(`${pod.baseUrl}/.admin/sessions`)
    expect(await page.locator('h1').textContent()).toBe('Apps and sessions')
    await look('sessions-first')
  })

  test('an app on http://localhost asks for consent: warned as unverified, WebID not broken mid-host, no alt text for a missing logo', async () => {
    const reg = await fetch(`${pod.baseUrl}/.oidc/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'First Hour App',
        redirect_uris: [`${appOrigin}/callback`],
        logo_uri: `${appOrigin}/logo.png`,
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    })
    expect(reg.status).toBe(201)
    const { client_id } = (await reg.json()) as { client_id: string }
    const auth = new URL(`${pod.baseUrl}/.oidc/auth`)
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id,
      redirect_uri: `${appOrigin}/callback`,
      scope: 'openid webid offline_access',
      state: 'st',
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: 'S256',
    }))
      auth.searchParams.set(k, v)
    await page.goto(auth.href)
    await page.waitForURL(/\/\.oidc\/consent/)
    expect(await page.locator('h1').textContent()).toBe('Allow access?')
    expect(await page.locator('.warning').textContent()).toContain(`Unverified application. It runs at ${appOrigin}`)
    const logo = page.locator('.client img')
    expect(await logo.getAttribute('alt')).toBe('')
    // It failed to load, and takes no space: no broken-image frame, no clipped alt text
    expect(await logo.evaluate((img: HTMLImageElement) => [img.complete && img.naturalWidth === 0, img.getBoundingClientRect().width])).toEqual([true, 0])
    expect(await isSplitAcrossLines(page, '.client', `localhost:${pod.port}`)).toBe(false)
    await look('consent')
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(new RegExp(`^${appOrigin}/callback\\?code=`))
  })

  test('sessions: readable dates that do not wrap mid-token, a one-line "Sign out", links to the profile and the pod\'s dashboard', async () => {
    await page.goto(`${pod.baseUrl}/.admin/sessions`)
    expect(await page.locator('main').textContent()).toContain('First Hour App')
    const times = await page.locator('time').allTextContents()
    expect(times.length).toBeGreaterThanOrEqual(3)
    for (const t of times) expect(t).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} \S+$/)
    expect(await lineCount(page, 'time .nowrap')).toEqual(Array(times.length * 2).fill(1))
    expect(await lineCount(page, 'td form.inline button')).toEqual(Array(await page.locator('td form.inline button').count()).fill(1))
    expect(await page.getByRole('link', { name: /^Signed in as / }).getAttribute('href')).toBe('/.admin/profile')
    expect(await page.getByRole('link', { name: 'Your pod' }).getAttribute('href')).toBe('/.admin/')
    await look('sessions')
  })

  test('the front door knows the owner is signed in; sign out ends it', async () => {
    await page.goto(`${pod.baseUrl}/`)
    expect(await page.locator('main').textContent()).toContain('You are signed in as the owner')
    await look('front-door-owner')
    await page.goto(`${pod.baseUrl}/.admin/sessions`)
    await page.locator('header').getByRole('button', { name: 'Sign out' }).click()
    expect(await page.locator('h1').textContent()).toBe('Signed out')
    await look('signed-out')
    await page.goto(`${pod.baseUrl}/.admin/sessions`)
    expect(new URL(page.url()).pathname).toBe('/.oidc/login')
  })

  test('the terminal stayed quiet: no favicon refusals, no access lines at the default level', () => {
    expect(pod.stdout()).not.toContain('/favicon.ico')
    expect(pod.stdout()).not.toContain('"event":"request"')
  })
})
