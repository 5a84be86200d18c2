// Shared browser harness: one headless Chromium per `bun test` process, real pods, screenshots.
//
// Usage in a browser test file:
//
//   import { HOOK_TIMEOUT, PHONE, newContext, screenshot, startBrowserPod } from '../browser/harness.ts'
//   setDefaultTimeout(30_000)                                   // per file in Bun; bunfig cannot set it
//   let pod: RunningPod
//   beforeAll(async () => { pod = await startBrowserPod() }, HOOK_TIMEOUT)  // http://localhost:PORT, temp data dir
//   afterAll(() => pod?.dispose())
//   test('…', async () => {
//     const context = await newContext({ viewport: PHONE })     // fresh cookies; close it when done
//     try {
//       const page = await context.newPage()
//       await page.goto(`${pod.baseUrl}/.oidc/login`)
//       await screenshot(page, 'login')                          // → test-artifacts/browser/login.png
//       expect(await horizontalOverflow(page)).toBe(0)           // usable at phone width
//     } finally { await context.close() }
//   })
//
// Chromium is Debian's /usr/bin/chromium driven by playwright-core (never a downloaded browser).
// It is launched on first use and shared by every test file of the process (this module is
// loaded once per process), relaunched if it crashed, and closed after the last file by the
// preload test/preload.ts. Each test makes its own BrowserContext, so cookies and storage never
// leak between tests.

import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Request as PageRequest } from 'playwright-core'
import { OWNER_PASSWORD, setupLink, startPod, type RunningPod, type StartOptions } from '../e2e/start-server.ts'

export { OWNER_PASSWORD, setupLink, type RunningPod }

export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Without the background-networking flags Chromium calls home, which a closed network refuses, many times over. */
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Git-ignored folder of screenshots and other artifacts a person looks at after a run. */
export const ARTIFACTS_DIR = join(import.meta.dir, '..', '..', 'test-artifacts', 'browser')

/** A phone's viewport (CSS pixels): pages must be usable at this width. */
export const PHONE = { width: 360, height: 740 } as const
export const DESKTOP = { width: 1100, height: 800 } as const

/** Timeout for beforeAll/afterAll hooks that start pods or the browser: hooks keep Bun's 5 s default otherwise. */
export const HOOK_TIMEOUT = 60_000

let browser: Promise<Browser> | undefined

/** The process's one Chromium, launched on first call. */
export function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true }).then(
    b => {
      b.on('disconnected', () => {
        browser = undefined
      })
      return b
    },
    (err: unknown) => {
      browser = undefined
      throw new Error(`could not start ${CHROMIUM_PATH} (install Debian's chromium package): ${String(err)}`)
    },
  )
  return browser
}

/** Closes the shared Chromium if it was launched (the preload test/preload.ts calls it once, at the end). */
export async function closeSharedBrowser(): Promise<void> {
  const launched = browser
  browser = undefined
  if (launched) await (await launched.catch(() => undefined))?.close()
}

/** A fresh, isolated browser profile (cookies, storage) on the shared browser; the caller closes it. */
export async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await (await sharedBrowser()).newContext({ viewport: DESKTOP, ...options })
  context.setDefaultTimeout(15_000)
  return context
}

/**
 * The real pod (subprocess) on a free 127.0.0.1 port with base URL `http://localhost:PORT` and a
 * temporary data directory; the owner's password is OWNER_PASSWORD. `dispose()` stops it and
 * removes the directory.
 */
export function startBrowserPod(options: StartOptions = {}): Promise<RunningPod> {
  return startPod(options)
}

/** Saves a full-page PNG as test-artifacts/browser/`name`.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/**
 * The current screen at desktop and phone width (`name`-desktop.png, `name`-phone.png), back at desktop
 * width after; returns how far the phone view scrolls sideways (0 = usable at phone width).
 */
export async function screenshotBothWidths(page: Page, name: string): Promise<number> {
  await screenshot(page, `${name}-desktop`)
  await page.setViewportSize(PHONE)
  await screenshot(page, `${name}-phone`)
  const overflow = await horizontalOverflow(page)
  await page.setViewportSize(DESKTOP)
  return overflow
}

/** CSS pixels the page is wider than its viewport (0 = nothing to scroll sideways on a phone). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth))
}

/**
 * Presses Tab until the element matching `selector` has focus (a person using the keyboard);
 * throws if it is not reachable within `maxTabs` presses.
 */
export async function tabTo(page: Page, selector: string, maxTabs = 20): Promise<void> {
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate(s => document.activeElement?.matches(s) ?? false, selector)) return
  }
  throw new Error(`${selector} cannot be reached with the Tab key (${maxTabs} presses)`)
}

/** Signs in on the pod's own login page by typing the password and pressing Enter. */
export async function signInAsOwner(page: Page, password = OWNER_PASSWORD): Promise<void> {
  await page.locator('input[name="password"]').fill(password)
  await page.keyboard.press('Enter')
}

/** Opens the dashboard of the pod at `baseUrl`, signs in on the login page it leads to, and waits to be back on it. */
export async function signInToDashboard(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/.admin/`)
  await signInAsOwner(page)
  await page.waitForURL(`${baseUrl}/.admin/`)
}

/** Resolves with the message of the page's next dialog once it has been dismissed (a confirm answered "Cancel"). */
export function dismissNextDialog(page: Page): Promise<string> {
  return new Promise(resolve =>
    page.once('dialog', d => {
      const message = d.message()
      void d.dismiss().then(() => resolve(message))
    }),
  )
}

/**
 * Lists the requests that would change something (any method but GET and HEAD) the page sends from now
 * on, as `METHOD /path`; `end()` stops listening and returns them. A dismissed confirm must add none.
 */
export function watchWrites(page: Page): { end(): string[] } {
  const sent: string[] = []
  const onRequest = (r: PageRequest) => {
    if (r.method() !== 'GET' && r.method() !== 'HEAD') sent.push(`${r.method()} ${new URL(r.url()).pathname}`)
  }
  page.on('request', onRequest)
  return {
    end: () => {
      page.off('request', onRequest)
      return sent
    },
  }
}

/**
 * Goes to `url` from a view that holds unsaved work (issue 26): the dashboard asks first, and this answers
 * "leave". Resolves with the question asked, or undefined when nothing was unsaved.
 */
export async function gotoLeavingUnsaved(page: Page, url: string): Promise<string | undefined> {
  let asked: string | undefined
  const answer = (d: import('playwright-core').Dialog) => {
    asked = d.message()
    void d.accept()
  }
  page.once('dialog', answer)
  await page.goto(url)
  // The question comes from the page's hashchange handler, just after the navigation is committed
  for (let waited = 0; asked === undefined && waited < 1000; waited += 50) await Bun.sleep(50)
  page.off('dialog', answer)
  return asked
}
