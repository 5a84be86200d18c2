// The legacy solid-0.1 protocol from a browser, with the library the SolidOS data browser uses for it: two windows
// (on another origin, as an app) show one shopping list through rdflib's UpdateManager; an item added in one appears
// in the other without a reload. rdflib reads Updates-Via from the document's answer, subs on that socket, and
// reloads the document on `pub` (addDownstreamChangeListener).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { HOOK_TIMEOUT, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'

setDefaultTimeout(60_000)

const RDFLIB = join(import.meta.dir, '..', '..', 'node_modules', 'rdflib', 'dist', 'rdflib.min.js')
// A space, an accent and encoded `#`, `?`, `%`, `+` in the list's name
const LIST = '/shopping/liste%20de%20courses%20%C3%A9t%C3%A9%20%23%3F%25+.ttl'
const EX = 'http://example.org/shop#'

let pod: RunningPod
let app: ReturnType<typeof Bun.serve>
beforeAll(async () => {
  pod = await startBrowserPod({
    seed: (dir, base) =>
      seedPublicContainer(dir, base, '/shopping/', ['Read', 'Write', 'Append'], async store => {
        await writeTurtle(store, base, LIST, `<#list> <${EX}item> "bread".`)
      }),
  })
  // The app: a page on another origin that shows the list with rdflib and adds items through it
  const page = `<!doctype html><meta charset="utf-8"><title>Shopping list</title>
<style>body{font:16px system-ui;margin:2em} li{margin:.2em 0}</style>
<h1>Shopping list</h1><ul id="items"></ul>
<script src="/rdflib.min.js"></script>
<script>
  const doc = $rdf.sym(${JSON.stringify(pod.baseUrl + LIST)})
  const item = $rdf.sym(${JSON.stringify(EX + 'item')})
  const store = $rdf.graph()
  const fetcher = new $rdf.Fetcher(store)
  const updater = new $rdf.UpdateManager(store)
  window.renders = 0
  const render = () => {
    const names = store.each($rdf.sym(doc.value + '#list'), item, null, doc).map(n => n.value).sort()
    document.getElementById('items').replaceChildren(...names.map(n => Object.assign(document.createElement('li'), { textContent: n })))
    window.renders++
  }
  window.ready = fetcher.load(doc).then(() => { render(); updater.addDownstreamChangeListener(doc, render) })
  window.addItem = (name) => updater.update([], [$rdf.st($rdf.sym(doc.value + '#list'), item, $rdf.lit(name), doc)]).then(render)
</script>`
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req =>
      new URL(req.url).pathname === '/rdflib.min.js'
        ? new Response(Bun.file(RDFLIB), { headers: { 'content-type': 'text/javascript' } })
        : new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
}, HOOK_TIMEOUT)
afterAll(async () => {
  await app?.stop(true)
  await pod?.dispose()
})

const items = (tab: import('playwright-core').Page) => tab.$$eval('#items li', lis => lis.map(li => li.textContent))

describe('solid-0.1 from rdflib in Chromium', () => {
  test('two windows on one list: an item added in one appears in the other without a reload', async () => {
    const context = await newContext()
    try {
      const [first, second] = [await context.newPage(), await context.newPage()]
      const sockets: string[] = []
      second.on('websocket', ws => sockets.push(ws.url()))
      for (const tab of [first, second]) {
        await tab.goto(`http://127.0.0.1:${app.port}/`)
        await tab.evaluate(() => (window as unknown as { ready: Promise<void> }).ready)
        expect(await items(tab)).toEqual(['bread'])
      }
      // the second window listens on the socket its Updates-Via named
      for (let waited = 0; sockets.length === 0 && waited < 5000; waited += 50) await Bun.sleep(50)
      expect(sockets).toEqual([`ws://localhost:${pod.port}/.notifications/solid-0.1`])
      const navigations: string[] = []
      second.on('framenavigated', f => navigations.push(f.url()))
      await first.evaluate(() => (window as unknown as { addItem(n: string): Promise<void> }).addItem('crème fraîche'))
      expect(await items(first)).toEqual(['bread', 'crème fraîche'])
      await second.waitForFunction(() => document.querySelectorAll('#items li').length === 2, undefined, { timeout: 10_000 })
      expect(await items(second)).toEqual(['bread', 'crème fraîche'])
      expect(navigations).toEqual([]) // no reload: rdflib fetched the document again on `pub`
      await screenshot(second, 'legacy-live-updates-second-window')
    } finally {
      await context.close()
    }
  })
})
