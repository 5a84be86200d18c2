// Share links over real HTTP (issue 38): `solopod links add` against the running pod, a stranger with no
// credentials reading a linked file and a linked folder while the paths stay private (401 to a plain GET),
// a file drop, expiry, removal, traversal attempts, and no token in the pod's log.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { rawRequest, sendRaw } from './raw-http.ts'
import { ownerScript, type OwnerSend } from './owner-script.ts'

let pod: RunningPod
let ownerSend: OwnerSend
const tokens: string[] = []

/** `solopod links add …`: exactly two lines on stdout, `id=…` and `url=…`. */
async function addLink(...args: string[]): Promise<{ id: string; url: string }> {
  const r = await runSolopod('links', 'add', ...args, '--data', pod.dataDir)
  expect(r.stderr).not.toContain('/.links/')
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/^id=link-[\w-]{12}\nurl=http:\/\/localhost:\d+\/\.links\/[\w-]{43}\/\n$/)
  const [id, url] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  tokens.push(url!.split('/').at(-2)!)
  return { id: id!, url: url! }
}

const put = async (path: string, text: string) => expect((await ownerSend('PUT', path, text, { 'content-type': 'text/plain' })).status).toBe(201)

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const NAME = 'a b é#?%+.txt'

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--log-level', 'debug'] })
  ownerSend = await ownerScript(pod)
  await put('/private/report.txt', 'the secret report')
  await put('/private/other.txt', 'not shared')
  await put(`/private/photos/${encodeURIComponent(NAME)}`, 'odd name')
  await put('/private/photos/sub/deep.txt', 'deep inside')
  await put('/private/photosx/beside.txt', 'beside the folder')
  await put('/private/drop/existing.txt', 'already there')
})
afterAll(async () => {
  await pod?.dispose()
})

describe('a link to one file', () => {
  let link: { id: string; url: string }
  beforeAll(async () => {
    link = await addLink('/private/report.txt', '--name', 'for the plumber')
  })

  test('the file stays private to a plain GET: 401', async () => {
    expect((await fetch(`${pod.baseUrl}/private/report.txt`)).status).toBe(401)
  })

  test('a stranger with no credentials gets the bytes, as a download, with no Referer leaving and the preview sandbox', async () => {
    const res = await fetch(link.url)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('the secret report')
    expect(res.headers.get('content-disposition')).toStartWith('attachment; filename="report.txt"')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('content-security-policy')).toBe('sandbox')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
  })

  test('a Range passes through: 206', async () => {
    const res = await fetch(link.url, { headers: { range: 'bytes=4-9' } })
    expect(res.status).toBe(206)
    expect(await res.text()).toBe('secret')
  })

  test('a browser gets a page with a download link', async () => {
    const res = await fetch(link.url, { headers: HTML })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('content-security-policy')).toEndWith('; sandbox allow-downloads')
    expect(await res.text()).toContain('?download')
  })

  test("nothing beside it opens: another file's name → 404 not_found", async () => {
    const res = await fetch(`${link.url}other.txt`)
    expect(res.status).toBe(404)
    expect(await res.text()).toStartWith('not_found:')
    // a browser's page does not send the person for a new link: the link is fine, the name is not in it
    const page = await (await fetch(`${link.url}other.txt`, { headers: HTML })).text()
    expect(page).toContain('<code id="error">not_found</code>')
    expect(page).toContain('<p>Go back to the previous page and try again, or ask whoever sent you the link.</p>')
    expect(page).not.toContain('for a new one')
  })
})

describe('a link to a folder', () => {
  let link: { id: string; url: string }
  beforeAll(async () => {
    link = await addLink('/private/photos')
  })

  test('the folder stays private to a plain GET: 401', async () => {
    expect((await fetch(`${pod.baseUrl}/private/photos/`)).status).toBe(401)
    expect((await fetch(`${pod.baseUrl}/private/photos/sub/deep.txt`)).status).toBe(401)
  })

  test('a browser gets the list, with names of spaces, accents, #, ?, % and +', async () => {
    const res = await fetch(link.url, { headers: HTML })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('a b é#?%+.txt')
    // the pod's canonical form of the name: `+` needs no escape in a path
    expect(page).toContain(`href="/.links/${link.url.split('/').at(-2)}/a%20b%20%C3%A9%23%3F%25+.txt"`)
    expect(page).toContain('sub/')
  })

  test('what is inside reads, at any depth', async () => {
    const odd = await fetch(link.url + encodeURIComponent(NAME))
    expect(odd.status).toBe(200)
    expect(await odd.text()).toBe('odd name')
    expect(odd.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(NAME)}`)
    const deep = await fetch(`${link.url}sub/deep.txt`)
    expect(deep.status).toBe(200)
    expect(await deep.text()).toBe('deep inside')
  })

  test('a missing name inside: 404 not_found', async () => {
    expect((await fetch(`${link.url}nothing.txt`)).status).toBe(404)
  })

  test('traversal attempts all 404', async () => {
    const token = link.url.split('/').at(-2)!
    const base = `/.links/${token}/`
    const targets = [
      `${base}..%2fother.txt`,
      `${base}%2e%2e/other.txt`,
      `${base}%2e%2e%2fother.txt`,
      `${base}sub%2f..%2f..%2fother.txt`,
      `${base}sub/%2e%2e/%2e%2e/other.txt`,
      `${base}../other.txt`,
      `${base}.acl`,
      `${base}sub/.acl`,
      `${base}%2fprivate%2fother.txt`,
      `${base}..%5cother.txt`,
      `/.links/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}/`,
      `/.links/${token}x/`,
    ]
    for (const target of targets) {
      const r = await sendRaw(pod.port, rawRequest('GET', target, [`Host: localhost:${pod.port}`]))
      expect(r.status, target).toBe(404)
      expect(r.body, target).not.toContain('not shared')
    }
    // Dot segments that climb out of /.links/ name the plain pod path, as private as before: 401 without the bytes
    for (const target of [`${base}../../private/other.txt`, '/.links/../private/other.txt']) {
      const r = await sendRaw(pod.port, rawRequest('GET', target, [`Host: localhost:${pod.port}`]))
      expect(r.status, target).toBe(401)
      expect(r.body, target).not.toContain('not shared')
    }
    // Nothing beside the folder whose name begins the same
    expect((await fetch(link.url.replace(/\/$/, 'x/beside.txt'))).status).toBe(404)
  })

  test('a read link takes no files: POST → 404', async () => {
    const res = await fetch(link.url, { method: 'POST', body: 'x', headers: { slug: 'x.txt', 'content-type': 'text/plain' } })
    expect(res.status).toBe(404)
  })
})

describe('an upload-only link (a file drop)', () => {
  let link: { id: string; url: string }
  beforeAll(async () => {
    link = await addLink('/private/drop/', '--upload-only', '--name', 'Drop')
  })

  test('shows nothing: GET → 405 method_not_allowed; a name inside → 404', async () => {
    const res = await fetch(link.url)
    expect(res.status).toBe(405)
    expect(await res.text()).toStartWith('method_not_allowed:')
    expect((await fetch(`${link.url}existing.txt`)).status).toBe(404)
  })

  test('a browser gets the form, which may post', async () => {
    const res = await fetch(link.url, { headers: HTML })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toEndWith('; sandbox allow-forms')
    const page = await res.text()
    expect(page).toContain('enctype="multipart/form-data"')
    expect(page).not.toContain('existing.txt')
    // Its end in the words of every other date a person reads on the pod's pages, not an HTTP date
    expect(page).toMatch(
      /This link works until <time datetime="[\d-]+T[\d:.]+Z"><span class="nowrap">\d{1,2} [A-Z][a-z]{2} \d{4}<\/span> <span class="nowrap">\d\d:\d\d \w+<\/span><\/time>\./,
    )
    expect(page).not.toContain('GMT')
  })

  test('a raw body with a Slug lands as a new file, never replacing one', async () => {
    const first = await fetch(link.url, { method: 'POST', body: 'dropped one', headers: { slug: 'existing.txt', 'content-type': 'text/plain' } })
    expect(first.status).toBe(201)
    const { added } = (await first.json()) as { added: string[] }
    expect(added).toHaveLength(1)
    expect(added[0]).not.toBe('existing.txt')
    expect(await (await ownerSend('GET', '/private/drop/existing.txt')).text()).toBe('already there')
  })

  test("a form with two files: both land (named by the pod's rule for a Slug)", async () => {
    const form = new FormData()
    form.append('file', new File(['one'], 'été 1.txt', { type: 'text/plain' }))
    form.append('file', new File(['two'], 'été 2.txt', { type: 'text/plain' }))
    const res = await fetch(link.url, { method: 'POST', body: form })
    expect(res.status).toBe(201)
    const { added } = (await res.json()) as { added: string[] }
    expect(added).toEqual(['été-1.txt', 'été-2.txt'])
    expect(await (await ownerSend('GET', `/private/drop/${encodeURIComponent(added[1]!)}`)).text()).toBe('two')
  })

  test("a browser's form post is answered 303 to the page that says how many arrived", async () => {
    const form = new FormData()
    form.append('file', new File(['three'], 'three.txt', { type: 'text/plain' }))
    const res = await fetch(link.url, { method: 'POST', body: form, headers: HTML, redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${new URL(link.url).pathname}?received=1`)
    const page = await fetch(new URL(res.headers.get('location')!, link.url), { headers: HTML })
    expect(await page.text()).toContain('Your file was received.')
  })

  test('a POST without a file or Slug: 400 invalid_request', async () => {
    const res = await fetch(link.url, { method: 'POST', body: 'x' })
    expect(res.status).toBe(400)
    expect(await res.text()).toStartWith('invalid_request:')
  })

  test('an upload link to a file is refused at the command line', async () => {
    const r = await runSolopod('links', 'add', '/private/report.txt', '--upload-only', '--data', pod.dataDir)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('an upload link names a folder')
  })
})

describe('a view-and-upload link (--upload)', () => {
  test('shows the folder with the form, adds a file to the folder itself, and none to a folder inside it', async () => {
    const link = await addLink('/private/photos/', '--upload')
    const page = await fetch(link.url, { headers: HTML })
    expect(page.headers.get('content-security-policy')).toEndWith('; sandbox allow-downloads allow-forms')
    const text = await page.text()
    expect(text).toContain('sub/')
    expect(text).toContain('enctype="multipart/form-data"')
    const added = await fetch(link.url, { method: 'POST', body: 'new one', headers: { slug: 'new.txt', 'content-type': 'text/plain' } })
    expect(added.status).toBe(201)
    expect(await (await fetch(`${link.url}new.txt`)).text()).toBe('new one')
    expect((await fetch(`${link.url}sub/`, { method: 'POST', body: 'x', headers: { slug: 'x.txt', 'content-type': 'text/plain' } })).status).toBe(404)
  })
})

describe('expiry and removal', () => {
  test('an expired link: 410 link_expired', async () => {
    const link = await addLink('/private/report.txt', '--expires', '2s')
    expect((await fetch(link.url)).status).toBe(200)
    await Bun.sleep(2200)
    const res = await fetch(link.url)
    expect(res.status).toBe(410)
    expect(await res.text()).toStartWith('link_expired:')
  })

  test('a removed link: 404 link_not_found, at once', async () => {
    const link = await addLink('/private/photos/')
    expect((await fetch(`${link.url}sub/deep.txt`)).status).toBe(200)
    const listed = await runSolopod('links', 'list', '--data', pod.dataDir)
    expect(listed.stdout).toMatch(new RegExp(`^${link.id}\\t/private/photos/\\tview and download\\t\\(no name\\)\\texpires \\S+\\t1 uses$`, 'm'))
    const r = await runSolopod('links', 'remove', link.id, '--data', pod.dataDir)
    expect(r.code).toBe(0)
    const res = await fetch(`${link.url}sub/deep.txt`)
    expect(res.status).toBe(404)
    expect(await res.text()).toStartWith('link_not_found:')
    expect((await runSolopod('links', 'remove', link.id, '--data', pod.dataDir)).code).toBe(2)
  })

  test('a mangled token: 404 link_not_found, as a page for a browser', async () => {
    const res = await fetch(`${pod.baseUrl}/.links/not-a-token/`, { headers: HTML })
    expect(res.status).toBe(404)
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    const page = await res.text()
    expect(page).toContain('link_not_found')
    // What to do is said once, in the problem's own words
    expect(page.match(/ask whoever sent/gi)).toHaveLength(1)
  })

  test('expiry beyond the maximum, or not a duration: refused with exit 2', async () => {
    for (const expires of ['400d', 'soon']) {
      const r = await runSolopod('links', 'add', '/private/report.txt', '--expires', expires, '--data', pod.dataDir)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
    }
  })

  test('a path that does not exist: refused with exit 2', async () => {
    const r = await runSolopod('links', 'add', '/private/nothing.txt', '--data', pod.dataDir)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('there is nothing at /private/nothing.txt')
  })
})

/** The uses `solopod links list` tells for a link (over the control socket: counts not yet written included). */
async function usesOf(id: string): Promise<number> {
  const listed = await runSolopod('links', 'list', '--data', pod.dataDir)
  const line = listed.stdout.split('\n').find(l => l.startsWith(`${id}\t`)) ?? ''
  return Number(/\t(\d+) uses$/.exec(line)?.[1])
}

describe('every use is counted, and only what was served', () => {
  test('a page, a download and an upload count; a HEAD, a preview, a Range, a 304 and refusals do not', async () => {
    const file = await addLink('/private/report.txt')
    expect((await fetch(file.url, { headers: HTML })).status).toBe(200)
    const whole = await fetch(`${file.url}?download`)
    expect(whole.status).toBe(200)
    expect((await fetch(`${file.url}?preview`)).status).toBe(200)
    expect((await fetch(file.url, { method: 'HEAD' })).status).toBe(200)
    expect((await fetch(file.url, { headers: { range: 'bytes=0-3' } })).status).toBe(206)
    expect((await fetch(file.url, { headers: { 'if-none-match': whole.headers.get('etag')! } })).status).toBe(304)
    expect((await fetch(`${file.url}inside.txt`)).status).toBe(404)
    expect(await usesOf(file.id)).toBe(2)

    const drop = await addLink('/private/drop/', '--upload-only')
    expect((await fetch(drop.url, { method: 'POST', body: 'a file', headers: { slug: 'counted.txt', 'content-type': 'text/plain' } })).status).toBe(201)
    expect((await fetch(`${drop.url}?received=1`, { headers: HTML })).status).toBe(200)
    expect((await fetch(drop.url)).status).toBe(405)
    expect(await usesOf(drop.id)).toBe(1)
  })

  test("a folder's zip is one use, whatever it holds", async () => {
    const folder = await addLink('/private/photos/')
    const zip = await fetch(`${folder.url}?download=zip`)
    expect(zip.status).toBe(200)
    await zip.arrayBuffer()
    expect(await usesOf(folder.id)).toBe(1)
  })

  test('the counts are written when the pod stops, and kept across a restart', async () => {
    const file = await addLink('/private/report.txt')
    for (let i = 0; i < 3; i++) expect((await fetch(file.url)).status).toBe(200)
    await pod.stop()
    const offline = await runSolopod('links', 'list', '--data', pod.dataDir)
    expect(offline.stdout).toMatch(new RegExp(`^${file.id}\t.*\t3 uses$`, 'm'))
    await pod.restart()
    expect((await fetch(file.url)).status).toBe(200)
    expect(await usesOf(file.id)).toBe(4)
  })
})

describe('no Referer carries a token away', () => {
  test("every answer under /.links/ says Referrer-Policy: no-referrer: pages, bytes, the drop's 303, and every refusal", async () => {
    const folder = await addLink('/private/photos/')
    const drop = await addLink('/private/drop/', '--upload-only')
    const expired = await addLink('/private/report.txt', '--expires', '1s')
    await Bun.sleep(1100)
    const answers: [string, Response][] = [
      ['folder page', await fetch(folder.url, { headers: HTML })],
      ['file inside, page', await fetch(`${folder.url}sub/deep.txt`, { headers: HTML })],
      ['file inside, bytes', await fetch(`${folder.url}sub/deep.txt?download`)],
      ['HEAD', await fetch(folder.url, { method: 'HEAD' })],
      ['missing inside', await fetch(`${folder.url}nothing.txt`, { headers: HTML })],
      ['drop page', await fetch(drop.url, { headers: HTML })],
      ['drop GET', await fetch(drop.url)],
      [
        'drop 303',
        await fetch(drop.url, { method: 'POST', redirect: 'manual', body: 'x', headers: { ...HTML, slug: 'ref.txt', 'content-type': 'text/plain' } }),
      ],
      ['expired', await fetch(expired.url, { headers: HTML })],
      ['unknown token', await fetch(`${pod.baseUrl}/.links/${'B'.repeat(43)}/`)],
    ]
    const statuses = answers.map(([what, res]) => [what, res.status])
    expect(statuses).toEqual([
      ['folder page', 200],
      ['file inside, page', 200],
      ['file inside, bytes', 200],
      ['HEAD', 200],
      ['missing inside', 404],
      ['drop page', 200],
      ['drop GET', 405],
      ['drop 303', 303],
      ['expired', 410],
      ['unknown token', 404],
    ])
    for (const [what, res] of answers) expect([what, res.headers.get('referrer-policy')]).toEqual([what, 'no-referrer'])
  })
})

describe('the log', () => {
  test('names no token, though every request was logged (debug)', () => {
    const log = pod.output()
    expect(log).toContain('/.links/(token)')
    expect(tokens.length).toBeGreaterThan(4)
    for (const t of tokens) expect(log).not.toContain(t)
  })

  test('links survive a restart; list works on the stopped pod', async () => {
    const link = await addLink('/private/report.txt', '--name', 'after restart')
    await pod.stop()
    const listed = await runSolopod('links', 'list', '--data', pod.dataDir)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`${link.id}\t/private/report.txt`)
    await pod.restart()
    expect(await (await fetch(link.url)).text()).toBe('the secret report')
  })
})
