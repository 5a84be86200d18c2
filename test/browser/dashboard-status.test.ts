// The dashboard's "Pod status" panel, with JavaScript and without: version, uptime, disk, the certificate
// (a pod serving https with a one-day certificate: shown as a warning), last backup; readable contrast in
// both colour schemes, no sideways scroll on a phone, screenshots in test-artifacts/browser/.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { HOOK_TIMEOUT, newContext, screenshotBothWidths, signInAsOwner, signInToDashboard, startBrowserPod, type RunningPod } from './harness.ts'
import { textContrastFailures } from './page-checks.ts'
import { makeLocalhostCertificate } from '../e2e/tls-cert.ts'
import pkg from '../../package.json' with { type: 'json' }

setDefaultTimeout(60_000)
let certDir: string
let pod: RunningPod
let context: BrowserContext

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'solopod-status-'))
  pod = await startBrowserPod({ tls: makeLocalhostCertificate(certDir) })
  context = await newContext({ ignoreHTTPSErrors: true })
}, HOOK_TIMEOUT)
afterAll(async () => {
  await context?.close()
  await pod?.dispose()
  rmSync(certDir, { recursive: true, force: true })
}, HOOK_TIMEOUT)

/** The panel's rows as label → text, and which of them are warnings. */
const readPanel = (page: Page) =>
  page.locator('dl.pod-status').evaluate(dl => {
    const rows: Record<string, { text: string; warning: boolean }> = {}
    for (const dt of dl.querySelectorAll('dt')) {
      const dd = dt.nextElementSibling as HTMLElement
      rows[dt.textContent!] = { text: dd.textContent!, warning: dd.classList.contains('warning') }
    }
    return rows
  })

async function checkLooks(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect({ colorScheme, failures: await textContrastFailures(page) }).toEqual({ colorScheme, failures: [] })
    expect(await screenshotBothWidths(page, `${name}${colorScheme === 'dark' ? '-dark' : ''}`)).toBe(0)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('with JavaScript: the Pod status section', async () => {
  const page = await context.newPage()
  await signInToDashboard(page, pod.baseUrl)
  await page.getByRole('link', { name: 'Pod status' }).click()
  await page.locator('dl.pod-status').waitFor()
  const rows = await readPanel(page)
  expect(rows['Version']!.text).toBe(`solopod ${pkg.version}`)
  expect(rows['Running for']!.text).toMatch(/^\d+ minutes?, since /)
  expect(rows['Disk']!.text).toMatch(/^[\d.]+\u00a0(B|KB|MB) used by the pod, [\d.]+\u00a0(MB|GB|TB) free$/)
  expect(rows['Biggest folders']!.text).toMatch(/^\/settings\/ [\d.]+\u00a0(B|KB)\u00a0· \/profile\/ [\d.]+\u00a0(B|KB)/)
  // a one-day certificate given with --tls-cert: valid, but within the 14 days before expiry → a warning
  expect(rows['Certificate']).toEqual({
    text: expect.stringMatching(/^localhost: valid until .+, \d+ hours? left \(from --tls-cert \(localhost\), renewed by you\)$/),
    warning: true,
  })
  expect(rows['Last backup']!.text).toBe('none yet')
  await checkLooks(page, 'status')
  await page.close()
})

test('without JavaScript: /.admin/status says the same', async () => {
  const plain = await newContext({ javaScriptEnabled: false, ignoreHTTPSErrors: true })
  try {
    const page = await plain.newPage()
    await page.goto(`${pod.baseUrl}/.admin/status`)
    await signInAsOwner(page)
    await page.waitForURL(`${pod.baseUrl}/.admin/status`)
    const rows = await readPanel(page)
    expect(rows['Version']!.text).toBe(`solopod ${pkg.version}`)
    expect(rows['Certificate']!.warning).toBe(true)
    expect(rows['Last backup']!.text).toBe('none yet')
    await checkLooks(page, 'nojs-status')
  } finally {
    await plain.close()
  }
})
