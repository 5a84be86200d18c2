// Issue 23 "The dashboard" in Chromium: a subscription opened with the protocol-text client shows in the
// Live updates panel (its document's name decoded: spaces, accents, #?%+), the owner ends it, and the
// client's socket closes with 'ended_by_owner'; the same on the page that needs no JavaScript. A webhook whose
// receiver fails is listed with its reason.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { HOOK_TIMEOUT, newContext, screenshot, screenshotBothWidths, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { contrastFailures, unlabelledControls } from './page-checks.ts'
import { listenOnSocket, signInOwnerApp, subscribe, type OwnerApp } from '../e2e/notify-client.ts'
import { startReceiver } from '../e2e/webhook-receiver.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let app: OwnerApp
beforeAll(async () => {
  pod = await startBrowserPod()
  app = await signInOwnerApp(pod, 'Carnet de notes')
  const res = await app.fetch(pod.baseUrl + DOC, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<#a> <http://example.org/p> "1".' })
  expect(res.status).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  app?.stop()
  await pod?.dispose()
}, HOOK_TIMEOUT)

const DOC = '/notes%20%C3%A9t%C3%A9/caf%C3%A9%20%23%3F%25+.ttl'
const SHOWN = '/notes été/café #?%+.ttl'

/** The app subscribes to DOC over WebSocketChannel2023 and listens. */
async function openSubscription() {
  const sub = await subscribe(pod, 'WebSocketChannel2023', pod.baseUrl + DOC, {}, app.fetch)
  expect(sub.status).toBe(200)
  return listenOnSocket(String(sub.body.receiveFrom))
}

describe('Live updates', () => {
  test('the panel lists the subscription (document, channel, WebID and app); End closes the socket with ended_by_owner', async () => {
    const { inbox } = await openSubscription()
    const context = await newContext()
    try {
      const page = await context.newPage()
      await signInToDashboard(page, pod.baseUrl)
      await page.getByRole('link', { name: 'Live updates' }).click()
      await page.getByRole('heading', { name: 'Live updates' }).waitFor()
      const row = page.getByRole('row').filter({ hasText: SHOWN })
      await row.waitFor()
      expect(await row.getByRole('link', { name: SHOWN }).getAttribute('href')).toBe(pod.baseUrl + DOC)
      expect(await row.textContent()).toContain('WebSocket')
      // the owner's own app: "You", as the Activity page says it, not the owner's WebID spelt out
      const who = (await row.locator('td[data-label="Who"]').textContent()) ?? ''
      expect(who).toStartWith('You')
      expect(who).not.toContain('/profile/card#me')
      expect(await row.textContent()).toContain('Carnet de notes')
      expect(await row.textContent()).not.toContain('ws://')
      expect(await unlabelledControls(page)).toEqual([])
      expect(await contrastFailures(page)).toEqual([])
      expect(await screenshotBothWidths(page, 'dashboard-live-updates')).toBe(0)

      page.once('dialog', d => {
        expect(d.message()).toContain(SHOWN)
        void d.accept()
      })
      await page.getByRole('button', { name: `End subscription to ${SHOWN}` }).click()
      await page.getByText('Subscription ended').waitFor()
      expect(await inbox.closedWithin(5000)).toEqual({ code: 1000, reason: 'ended_by_owner' })
      await page.getByText('No subscriptions are open').waitFor()
      await screenshot(page, 'dashboard-live-updates-ended-desktop')
    } finally {
      await context.close()
    }
  })

  test('without JavaScript: the page lists it and its End form closes the socket with ended_by_owner', async () => {
    const { inbox } = await openSubscription()
    const context = await newContext({ javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await signInToDashboard(page, pod.baseUrl)
      await page.goto(`${pod.baseUrl}/.admin/live-updates`)
      const row = page.getByRole('row').filter({ hasText: SHOWN })
      expect(await row.getByRole('link', { name: SHOWN }).count()).toBe(1)
      expect(await unlabelledControls(page)).toEqual([])
      expect(await screenshotBothWidths(page, 'nojs-live-updates')).toBe(0)
      await row.getByRole('button', { name: `End subscription to ${SHOWN}` }).click()
      await page.waitForURL(`${pod.baseUrl}/.admin/live-updates?done=ended`)
      expect(await page.locator('p.notice').textContent()).toBe('Subscription ended')
      expect(await inbox.closedWithin(5000)).toEqual({ code: 1000, reason: 'ended_by_owner' })
    } finally {
      await context.close()
    }
  })

  test('a webhook whose receiver answers 503 is listed under "Webhooks that fail" with its reason', async () => {
    const receiver = startReceiver()
    receiver.behave('/broken', () => new Response('down', { status: 503 }))
    const context = await newContext()
    try {
      const sub = await subscribe(pod, 'WebhookChannel2023', pod.baseUrl + DOC, { sendTo: `${receiver.base}/broken` }, app.fetch)
      expect(sub.status).toBe(200)
      expect(
        (await app.fetch(pod.baseUrl + DOC, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<#a> <http://example.org/p> "2".' })).status,
      ).toBeLessThan(300)
      const page = await context.newPage()
      await signInToDashboard(page, pod.baseUrl)
      const troubles = page.locator('section[aria-labelledby="webhook-troubles-h"]')
      for (let i = 0; i < 20 && (await troubles.count()) === 0; i++) {
        await page.goto(`${pod.baseUrl}/.admin/live-updates`)
        await page.reload()
        await page.getByRole('heading', { name: 'Live updates' }).waitFor()
      }
      const row = troubles.getByRole('row').filter({ hasText: SHOWN })
      expect(await row.textContent()).toContain('answered 503')
      expect(await row.textContent()).toContain('failing')
      expect(await page.getByRole('row').filter({ hasText: 'Webhook' }).count()).toBeGreaterThan(0)
      expect(await screenshotBothWidths(page, 'dashboard-live-updates-webhooks')).toBe(0)
    } finally {
      await context.close()
      receiver.stop()
    }
  })
})
