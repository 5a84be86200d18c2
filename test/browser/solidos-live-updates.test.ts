// The SolidOS data browser (mashlib, its "browse" app on another origin) against the pod's legacy solid-0.1
// socket: two windows show one folder; a file saved from the first (through the data browser's own rdflib store)
// appears in the second's folder view without a reload — the folder pane listens with
// addDownstreamChangeListener, which subs on the socket the folder's Updates-Via names.
// (The data browser's icons come from solidos.github.io, which this machine cannot reach: they show as alt text.)

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { serveMashlib } from './mashlib-site.ts'

setDefaultTimeout(60_000)

// A space, an accent and encoded `#`, `?`, `%`, `+` in the folder's name
const FOLDER = "/courses%20d'%C3%A9t%C3%A9%20%23%3F%25+/"

let pod: RunningPod
let app: ReturnType<typeof Bun.serve>
beforeAll(async () => {
  pod = await startBrowserPod({
    seed: (dir, base) =>
      seedPublicContainer(dir, base, FOLDER, ['Read', 'Write', 'Append'], async store => {
        await writeTurtle(store, base, `${FOLDER}bread.ttl`, '<#it> <http://example.org/qty> 1.')
      }),
  })
  // mashlib's dist, as solidos.github.io serves it: browse.html?uri=… is the data browser
  app = serveMashlib()
}, HOOK_TIMEOUT)
afterAll(async () => {
  await app?.stop(true)
  await pod?.dispose()
})

describe('SolidOS data browser in Chromium, over solid-0.1', () => {
  test('two windows on one folder: a file saved in the first appears in the second without a reload', async () => {
    const context = await newContext()
    try {
      const [first, second] = [await context.newPage(), await context.newPage()]
      const sockets: string[] = []
      second.on('websocket', ws => sockets.push(ws.url()))
      const navigations: string[] = []
      for (const tab of [first, second]) {
        await tab.goto(`http://127.0.0.1:${app.port}/browse.html?uri=${encodeURIComponent(pod.baseUrl + FOLDER)}`)
        await tab.getByText('bread.ttl').first().waitFor({ timeout: 20_000 })
      }
      second.on('framenavigated', f => navigations.push(f.url()))
      for (let waited = 0; sockets.length === 0 && waited < 5000; waited += 50) await Bun.sleep(50)
      expect(sockets).toEqual([`ws://localhost:${pod.port}/.notifications/solid-0.1`])
      expect(await second.getByText('crème fraîche.ttl').count()).toBe(0)
      // the first window saves a new file through the data browser's own store (rdflib's fetcher)
      const status = await first.evaluate(async url => {
        const store = (window as unknown as { SolidLogic: { store: { fetcher: { webOperation(m: string, u: string, o: object): Promise<Response> } } } })
          .SolidLogic.store
        return (await store.fetcher.webOperation('PUT', url, { data: '<#it> <http://example.org/qty> 2.', contentType: 'text/turtle' })).status
      }, `${pod.baseUrl}${FOLDER}cr%C3%A8me%20fra%C3%AEche.ttl`)
      expect(status).toBe(201)
      await second.getByText('crème fraîche.ttl').first().waitFor({ timeout: 10_000 })
      expect(navigations).toEqual([]) // no reload: the folder pane fetched the folder again on `pub`
      await screenshot(second, 'solidos-live-updates-second-window')
    } finally {
      await context.close()
    }
  })
})
