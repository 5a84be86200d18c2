// Issue 13 "a page renders in under 100 ms for a container of 10,000 children": the pod's Files page
// shows at most 100 rows, cursors to the next, and its dates are written by the pod (src/http/local-time.ts):
// the browser builds no Intl formatter and formats no date while pages are drawn (building one per row is
// what took 17–54 ms per 100 rows). Counted in Chromium.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, startBrowserPod, type RunningPod, signInToDashboard } from './harness.ts'

setDefaultTimeout(60_000)
let pod: RunningPod
let context: BrowserContext
let page: Page
const FILES = 120

interface DateCounts {
  formatters: number
  toLocale: number
}
const counts = () => page.evaluate(() => ({ ...(window as unknown as { dateCounts: DateCounts }).dateCounts }))

beforeAll(async () => {
  pod = await startBrowserPod()
  context = await newContext()
  // Before any script of the page: count every Intl.DateTimeFormat made and every Date toLocale*String call
  await context.addInitScript(() => {
    const seen = { formatters: 0, toLocale: 0 }
    Object.defineProperty(window, 'dateCounts', { value: seen })
    Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
      construct: (target, args, newTarget) => {
        seen.formatters++
        return Reflect.construct(target, args, newTarget) as object
      },
      apply: (target, self, args) => {
        seen.formatters++
        return Reflect.apply(target, self, args) as unknown
      },
    })
    for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'] as const) {
      const original = Date.prototype[name]
      Date.prototype[name] = function (this: Date, ...args: Parameters<typeof original>) {
        seen.toLocale++
        return original.apply(this, args)
      }
    }
  })
  page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  const statuses = await page.evaluate(
    async ([base, n]) => {
      const csrf = document.getElementById('dashboard')!.dataset.csrf!
      const put = (i: number) =>
        fetch(`${base}/many/f${String(i).padStart(3, '0')}.txt`, {
          method: 'PUT',
          headers: { 'x-csrf-token': csrf, 'content-type': 'text/plain' },
          body: `file ${i}`,
        }).then(r => r.status)
      const out: number[] = []
      for (let i = 0; i < n!; i += 20) out.push(...(await Promise.all(Array.from({ length: Math.min(20, n! - i) }, (_, j) => put(i + j)))))
      return out
    },
    [pod.baseUrl, FILES] as const,
  )
  expect(statuses).toEqual(Array(FILES).fill(201))
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
}, HOOK_TIMEOUT)

/** The instants of the second page, from the listing API (the page's own order). */
const secondPageDates = () =>
  page.evaluate(async base => {
    const headers = { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf! }
    const first = (await (await fetch(`${base}/.admin/api/browse?path=%2Fmany%2F`, { headers })).json()) as { next: string }
    const res = await fetch(`${base}/.admin/api/browse?path=%2Fmany%2F&after=${encodeURIComponent(first.next)}`, { headers })
    const list = (await res.json()) as { items: { modified: string }[] }
    return list.items.map(it => new Date(it.modified).toISOString())
  }, pod.baseUrl)

describe('a folder of many files', () => {
  test("two pages of rows: the dates are the pod's, no formatter built per row and no date formatted in the browser", async () => {
    await page.goto(`${pod.baseUrl}/.admin/files?path=%2Fmany%2F`)
    const modified = page.locator('td[data-label="Modified"] time')
    await page.getByText(`${FILES} items`).first().waitFor()
    expect(await modified.count()).toBe(100)
    // at most the script's one formatter, made when it loads, whatever the number of rows
    const drawn = async () => {
      const c = await counts()
      expect(c.formatters).toBeLessThanOrEqual(1)
      expect(c.toLocale).toBe(0)
    }
    await drawn()
    await page.getByRole('link', { name: 'Next page' }).first().click()
    await page.getByRole('link', { name: 'Previous page' }).first().waitFor()
    expect(await modified.count()).toBe(FILES - 100)
    await drawn()
    expect(await modified.evaluateAll(all => all.map(t => t.getAttribute('datetime')))).toEqual(await secondPageDates())
  })
})
