// Issue 40, "a recipe for the SolidOS data browser (mashlib) against the pod, tested": docs/apps.md's recipe —
// mashlib's dist/ served as static files on an origin of its own — and its browse.html, given a pod document whose
// name holds a space, accents, #, ?, % and +, shows that document's statements.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, startBrowserPod, type RunningPod } from './harness.ts'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { encodeSegment } from '../../src/store/target.ts'
import { serveMashlib } from './mashlib-site.ts'

const DOC = `/pub/${encodeSegment('Été #1 ?50% a+b.ttl')}`
let pod: RunningPod
let site: ReturnType<typeof Bun.serve>
let context: BrowserContext

beforeAll(async () => {
  pod = await startBrowserPod({
    seed: (dir, base) =>
      seedPublicContainer(dir, base, '/pub/', ['Read'], store =>
        writeTurtle(
          store,
          base,
          DOC,
          '<#trip> <http://purl.org/dc/terms/title> "Holiday notes for Été 2026"; <http://www.w3.org/2000/01/rdf-schema#comment> "packed".',
        ),
      ),
  })
  site = serveMashlib()
  context = await newContext()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  site?.stop(true)
  await pod?.dispose()
})

describe('SolidOS data browser (mashlib) against the pod', () => {
  test("browse.html?uri=<a pod document> shows the document's statements, at desktop and phone widths", async () => {
    const page = await context.newPage()
    await page.goto(`http://localhost:${site.port}/browse.html?uri=${encodeURIComponent(pod.baseUrl + DOC)}`)
    await page.getByText('Holiday notes for Été 2026').first().waitFor({ timeout: 30_000 })
    expect(await page.locator('td', { hasText: /^packed$/ }).count()).toBeGreaterThan(0)
    // mashlib's own page: its width on a phone is its own affair, the screenshots are for looking at
    await screenshotBothWidths(page, 'mashlib-browse')
    await page.close()
  }, 60_000)
})
