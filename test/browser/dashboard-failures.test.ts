// Issues 13 and 26, "every failure shows a readable message, in plain words first": the script's messages
// (api.ts) say what happened in plain words, then what the server said, with the error code small beside
// them; at phone width the message is on the screen, not a screen above the form that caused it; and the
// pages without the script say the same on the error page. (The upload report's cases went with the
// upload, another area's enhancement.)

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page
/** A phone's viewport as the audit measured it, with the on-screen keyboard up while typing (half of it). */
const PHONE_390 = { width: 390, height: 844 } as const
const PHONE_TYPING = { width: 390, height: 420 } as const
const EDIT = '/.admin/files/edit?path=%2Fnotes%2Fa.ttl'

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext({ viewport: PHONE_TYPING })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const put = await page.evaluate(
    u =>
      fetch(u, {
        method: 'PUT',
        headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'text/turtle' },
        body: '<#it> <http://example.org/says> "hello".',
      }).then(r => r.status),
    `${pod.baseUrl}/notes/a.ttl`,
  )
  expect(put).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const status = () => page.locator('#status')
/** The element's box lies within the viewport (a fraction of a pixel off is layout rounding). */
const inView = (selector: string) =>
  page.locator(selector).evaluate(el => {
    const r = el.getBoundingClientRect()
    return r.height > 0 && r.top > -1 && r.bottom < window.innerHeight + 1
  })

/** The Turtle check's call answered by `status` with the owner API's JSON refusal. */
async function checkRefused(code: string, httpStatus: number, description: string): Promise<void> {
  await page.route(
    /\/\.admin\/api\/check-rdf$/,
    route => route.fulfill({ status: httpStatus, contentType: 'application/json', body: JSON.stringify({ error: code, error_description: description }) }),
    { times: 1 },
  )
  await page.goto(pod.baseUrl + EDIT)
  await page.getByLabel('Turtle').fill('<#it> <http://example.org/says> "typed at the bottom of a phone".\n'.repeat(30))
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  // typing scrolled the status line (above the heading) off the top of the screen
  expect(await page.locator('h1').evaluate(el => el.getBoundingClientRect().bottom)).toBeLessThan(0)
  await page.locator('#status[role="alert"]').waitFor()
}

describe("the script's failures: plain words first, the code small", () => {
  test('signed out (401): said in plain words, the description after, the code beside; on the screen', async () => {
    await checkRefused('login_required', 401, 'sign in as the owner first')
    expect(await status().evaluate(el => el.firstChild?.textContent)).toBe(
      'Checking the Turtle failed: You are signed out: sign in again, then try once more. (reload the page to sign in again)',
    )
    expect(await page.locator('#status-code').textContent()).toBe('Error code: login_required')
    expect(await page.locator('#status-code').evaluate(el => el.tagName)).toBe('SMALL')
    expect(await inView('#status')).toBe(true)
    await screenshot(page, 'failures-script-phone')
  })

  test('too large (413): plain words, then what the server said', async () => {
    await checkRefused('payload_too_large', 413, 'the body is larger than 1 MB')
    expect(await status().evaluate(el => el.firstChild?.textContent)).toBe(
      'Checking the Turtle failed: This is too large for the pod to take. (the body is larger than 1 MB)',
    )
    expect(await page.locator('#status-code').textContent()).toBe('Error code: payload_too_large')
  })

  test('a refusal with no plain sentence: its description alone, the code beside', async () => {
    await checkRefused('server_error', 500, 'the parser broke')
    expect(await status().evaluate(el => el.firstChild?.textContent)).toBe('Checking the Turtle failed: the parser broke')
    expect(await page.locator('#status-code').textContent()).toBe('Error code: server_error')
  })
})

describe('without the script, the error page says the same', () => {
  test('a form from an older session (403 csrf_failed): plain words first, on the screen at phone width', async () => {
    const js = await newContext({ viewport: PHONE_390, javaScriptEnabled: false })
    try {
      await js.addCookies(await context.cookies())
      const p = await js.newPage()
      await p.goto(pod.baseUrl + EDIT)
      await p.locator('#edit-form input[name="csrf"]').evaluate((el: HTMLInputElement) => {
        el.value = 'x'.repeat(43)
      })
      await p.getByLabel('Turtle').fill('<#it> <http://example.org/says> "stale".')
      const [answer] = await Promise.all([p.waitForResponse(r => r.request().method() === 'POST'), p.getByRole('button', { name: 'Save' }).click()])
      expect(answer.status()).toBe(403)
      const box = p.locator('.error[role=alert]')
      expect(await box.locator('p').first().textContent()).toBe('This page is out of date (it was opened before you last signed in): reload it and try again.')
      expect(await box.locator('.code').textContent()).toBe('Error code: csrf_failed')
      await screenshot(p, 'failures-error-page-phone')
    } finally {
      await js.close()
    }
  })
})
