// Issue 13 "a page renders in under 100 ms for a container of 10,000 children": the listing shows a page
// of at most 100 rows, and their dates cost no Intl formatter each (building one is what took 17–54 ms
// per 100 rows). Counted in Chromium: formatters built and toLocale*String calls while pages are drawn.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page
const FILES = 120

interface DateCounts { formatters: number; toLocale: number }
const counts = () => page.evaluate(() => ({ ...(window as unknown as { dateCounts: DateCounts }).dateCounts }))

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  // Before any script of the page: count every Intl.DateTimeFormat made and every Date toLocale*String call
  await context.addInitScript(() => {
    const seen = { formatters: 0, toLocale: 0 }
    Object.defineProperty(window, 'dateCounts', { value: seen })
    Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
      construct: (target, args, newTarget) => { seen.formatters++; return Reflect.construct(target, args, newTarget) as object },
      apply: (target, self, args) => { seen.formatters++; return Reflect.apply(target, self, args) as unknown },
    })
    for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'] as const) {
      const original = Date.prototype[name]
      Date.prototype[name] = function (this: Date, ...args: Parameters<typeof original>) { seen.toLocale++; return original.apply(this, args) }
    }
  })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const statuses = await page.evaluate(async ([base, n]) => {
    const csrf = document.getElementById('dashboard')!.dataset.csrf!
    const put = (i: number) => fetch(`${base}/many/f${String(i).padStart(3, '0')}.txt`, { method: 'PUT', headers: { 'x-csrf-token': csrf, 'content-type': 'text/plain' }, body: `file ${i}` }).then((r) => r.status)
    const out: number[] = []
    for (let i = 0; i < n!; i += 20) out.push(...await Promise.all(Array.from({ length: Math.min(20, n! - i) }, (_, j) => put(i + j))))
    return out
  }, [pod.baseUrl, FILES] as const)
  expect(statuses).toEqual(Array(FILES).fill(201))
}, HOOK_TIMEOUT)
afterAll(async () => { await context?.close(); await pod?.dispose() }, HOOK_TIMEOUT)

/** The Modified column of the second page as toLocaleString would write it, from the listing API (the page's own order). */
const secondPageDates = () => page.evaluate(async (base) => {
  const headers = { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! }
  const first = await (await fetch(`${base}/.admin/api/browse?path=%2Fmany%2F`, { headers })).json() as { next: string }
  const res = await fetch(`${base}/.admin/api/browse?path=%2Fmany%2F&after=${encodeURIComponent(first.next)}`, { headers })
  const list = await res.json() as { items: { modified: string }[] }
  return list.items.map((it) => new Date(it.modified).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }))
}, pod.baseUrl)

describe('a folder of many files', () => {
  test('two pages of rows: no formatter built per date, the dates written as toLocaleString writes them', async () => {
    const atLoad = await counts()
    // the dashboard's one formatter, made when its script loads
    expect(atLoad).toEqual({ formatters: 1, toLocale: 0 })
    await page.goto(`${pod.baseUrl}/.admin/#/files/many/`)
    const modified = page.locator('td[data-label="Modified"]')
    await page.getByText(`1–100 of ${FILES}`).first().waitFor()
    expect(await modified.count()).toBe(100)
    await page.getByRole('button', { name: 'Next page' }).first().click()
    await page.getByText(`101–${FILES} of ${FILES}`).first().waitFor()
    expect(await modified.count()).toBe(FILES - 100)
    expect(await counts()).toEqual({ formatters: 1, toLocale: 0 })
    const shown = await modified.allTextContents()
    expect(shown).toEqual(await secondPageDates())
  })
})
