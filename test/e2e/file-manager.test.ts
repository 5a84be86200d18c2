// The file manager over real HTTP: a second file of the same name gets a number before its extension
// (`photo (2).jpg`), from an LDP POST with a Slug and from the dashboard's upload form alike.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
let csrf: string
beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write', 'Append', 'Control']) })
  owner = await signInOwnerApp(pod, 'File manager test app')
  csrf = await csrfToken(pod.baseUrl, owner.browser)
})
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const url = (path: string) => pod.baseUrl + path
const asOwner = (path: string, init: RequestInit = {}) =>
  fetch(url(path), {
    redirect: 'manual',
    ...init,
    headers: { cookie: owner.browser.header(), origin: pod.baseUrl, ...(init.headers as Record<string, string>) },
  })
const upload = (folder: string, files: File[], fields: Record<string, string> = {}) => {
  const body = new FormData()
  body.append('csrf', csrf)
  body.append('path', folder)
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  for (const f of files) body.append('file', f)
  return asOwner('/.admin/files/upload', { method: 'POST', body })
}
/** The notice of the page a form's 303 leads to. */
const noticeAfter = async (res: Response) => {
  const page = await (await asOwner(res.headers.get('location')!)).text()
  return /<p class="notice" role="status">([^<]*)</.exec(page)?.[1]?.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"')
}

describe('a second file of the same name gets a number, keeping its extension', () => {
  test('LDP POST with Slug photo.jpg three times → 201 photo.jpg, photo (2).jpg, photo (3).jpg, each with its own bytes', async () => {
    const locations: string[] = []
    for (const body of ['one', 'two', 'three']) {
      const res = await fetch(url('/pub/'), { method: 'POST', headers: { slug: 'photo.jpg', 'content-type': 'image/jpeg' }, body })
      expect(res.status).toBe(201)
      locations.push(res.headers.get('location')!)
    }
    expect(locations).toEqual([url('/pub/photo.jpg'), url('/pub/photo%20(2).jpg'), url('/pub/photo%20(3).jpg')])
    expect(await (await fetch(locations[0]!)).text()).toBe('one')
    expect(await (await fetch(locations[2]!)).text()).toBe('three')
  })

  test('a Slug without an extension gets the number at the end; a taken folder name counts as taken', async () => {
    expect((await fetch(url('/pub/notes/'), { method: 'PUT' })).status).toBe(201)
    const res = await fetch(url('/pub/'), { method: 'POST', headers: { slug: 'notes', 'content-type': 'text/plain' }, body: 'x' })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(url('/pub/notes%20(2)'))
  })

  test('the dashboard upload without Replace → 303, the new file is the next numbered name, photo (4).jpg, and the notice says so; the old one kept', async () => {
    const first = await upload('/pub/', [new File(['new'], 'photo.jpg', { type: 'image/jpeg' })])
    expect(first.status).toBe(303)
    expect(await noticeAfter(first)).toBe('Uploaded photo (4).jpg (a file of that name was already here, so the new one got a number)')
    expect(await (await fetch(url('/pub/photo%20(4).jpg'))).text()).toBe('new')
    expect(await (await fetch(url('/pub/photo.jpg'))).text()).toBe('one')
  })

  test('with Replace ticked → 303, the file of that name is replaced', async () => {
    const res = await upload('/pub/', [new File(['replaced'], 'photo.jpg', { type: 'image/jpeg' })], { replace: 'yes' })
    expect(res.status).toBe(303)
    expect(await noticeAfter(res)).toBe('Uploaded photo.jpg')
    expect(await (await fetch(url('/pub/photo.jpg'))).text()).toBe('replaced')
  })
})

describe('an upload of many files ends with one line', () => {
  test('three files → 303 and "3 files uploaded to Holiday Photos · 3.0 KB · 1 got a number"', async () => {
    expect(await (await upload('/pub/Holiday%20Photos/', [new File(['x'], 'b.jpg')])).status).toBe(303)
    const kb = 'k'.repeat(1024)
    const res = await upload('/pub/Holiday%20Photos/', [new File([kb], 'a.jpg'), new File([kb], 'b.jpg'), new File([kb], 'c.jpg')])
    expect(res.status).toBe(303)
    expect(await noticeAfter(res)).toBe('3 files uploaded to Holiday Photos\u00a0· 3.0\u00a0KB\u00a0· 1 got a number, its name was taken')
    expect((await fetch(url('/pub/Holiday%20Photos/b%20(2).jpg'))).status).toBe(200)
  })
})

describe('paths are shown decoded on every page, in error messages too', () => {
  const NAME = 'Été photos #1 & co?'
  const FOLDER = `/pub/${encodeURIComponent(NAME).replace('%26', '&')}/`
  const FILE = `${FOLDER}note.txt`
  /** The text of a page's <main>, entities read back, as a person sees it. */
  const textOf = async (res: Response) =>
    (/<main[^>]*>([\s\S]*)<\/main>/.exec(await res.text())?.[1] ?? '')
      .replace(/<[^>]+>/g, ' ')
      .replaceAll('&amp;', '&')
      .replaceAll('&#39;', "'")
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
  const page = (route: string, path: string) => asOwner(`${route}?path=${encodeURIComponent(path)}`)

  beforeAll(async () => {
    expect(FOLDER).toBe('/pub/%C3%89t%C3%A9%20photos%20%231%20&%20co%3F/')
    expect((await fetch(url(FILE), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' })).status).toBe(201)
  })

  test.each([
    ['/.admin/files', FOLDER, NAME],
    ['/.admin/files/view', FILE, 'note.txt'],
    ['/.admin/delete', FILE, `/pub/${NAME}/note.txt`],
    ['/.admin/files/move', FILE, NAME],
    ['/.admin/share', FOLDER, NAME],
  ])('GET %s of the folder or its file → 200, the name decoded, no percent-escape', async (route, path, shown) => {
    const res = await page(route, path)
    expect(res.status).toBe(200)
    const text = await textOf(res)
    expect(text).toContain(shown)
    expect(text).not.toMatch(/%[0-9A-F]{2}/)
  })

  test.each([
    ['/.admin/files', FILE, 400, 'not_a_container'],
    ['/.admin/files/view', `${FOLDER}gone.txt`, 404, 'not_found'],
    ['/.admin/delete', `${FOLDER}gone.txt`, 404, 'not_found'],
    ['/.admin/files/view', FOLDER, 400, 'not_a_document'],
  ])('GET %s?path=%s → %i %s, the message naming the path decoded', async (route, path, status, code) => {
    const res = await page(route, path)
    expect(res.status).toBe(status)
    const text = await textOf(res)
    expect(text).toContain(code)
    expect(text).toContain(`/pub/${NAME}/`)
    expect(text).not.toMatch(/%[0-9A-F]{2}/)
  })

  test('the owner API keeps the stored path in its JSON (what the script decodes for people)', async () => {
    const res = await asOwner(`/.admin/api/tree/count?path=${encodeURIComponent(FILE)}`, { headers: { 'x-csrf-token': csrf } })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error_description: string }).error_description).toContain(FILE)
  })
})

describe('the trash: Delete for good and Empty trash, each asked first with the space it frees', () => {
  const form = (route: string, fields: Record<string, string>) =>
    asOwner(route, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, ...fields }) })
  const trash = async (path: string) => {
    const res = await asOwner('/.admin/api/trash', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    })
    expect(res.status).toBe(200)
    return (await res.json()) as { id: string }
  }
  const listing = async () => (await (await asOwner('/.admin/api/trash', { headers: { 'x-csrf-token': csrf } })).json()) as { id: string; bytes: number }[]
  let big: string
  let small: string

  beforeAll(async () => {
    expect(
      (await fetch(url('/pub/bin/big.bin'), { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(3 * 1024 * 1024) }))
        .status,
    ).toBe(201)
    expect((await fetch(url('/pub/bin/small.txt'), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'small' })).status).toBe(201)
    big = (await trash('/pub/bin/big.bin')).id
    small = (await trash('/pub/bin/small.txt')).id
  })

  test("the trash page shows each item's size and Empty trash with the total", async () => {
    const page = await (await asOwner('/.admin/trash')).text()
    expect(page).toContain('3.0\u00a0MB')
    expect(page).toContain('Empty trash (3.0\u00a0MB)')
    expect(page).toContain(`/.admin/trash/delete?id=${big}`)
    expect((await listing()).find(it => it.id === small)?.bytes).toBe(5)
  })

  test('GET delete?id= asks, saying the space it frees; nothing is deleted by the question', async () => {
    const res = await asOwner(`/.admin/trash/delete?id=${big}`)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('Delete <strong>/pub/bin/big.bin</strong> for good? This frees 3.0\u00a0MB.')
    expect((await listing()).map(it => it.id)).toContain(big)
  })

  test.each([
    ['GET', '/.admin/trash/delete?id=nope', 404, 'not_found'],
    ['GET', '/.admin/trash/delete', 400, 'invalid_request'],
    ['POST', '/.admin/trash/delete', 404, 'not_found'],
    ['POST', '/.admin/trash/empty', 400, 'invalid_request'],
  ])('%s %s → %i %s, nothing deleted', async (method, route, status, code) => {
    const res = method === 'GET' ? await asOwner(route) : await form(route, route.endsWith('delete') ? { id: 'nope' } : { upTo: 'soon' })
    expect(res.status).toBe(status)
    expect(await res.text()).toContain(`<code id="error">${code}</code>`)
    expect((await listing()).length).toBe(2)
  })

  test('POST delete → 303 to the trash with "Deleted big.bin for good · 3.0 MB freed"; the item is gone, restoring it 404', async () => {
    const res = await form('/.admin/trash/delete', { id: big })
    expect(res.status).toBe(303)
    expect(await noticeAfter(res)).toBe('Deleted big.bin for good\u00a0· 3.0\u00a0MB freed')
    expect((await listing()).map(it => it.id)).toEqual([small])
    expect((await form('/.admin/trash/restore', { id: big })).status).toBe(404)
  })

  test('Empty trash: the page asks with the count and the space; what is deleted after the page was shown stays', async () => {
    const page = await asOwner('/.admin/trash/empty')
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('Delete the 1 item in the trash for good? This frees 5\u00a0B.')
    const upTo = /name="upTo" value="(\d+)"/.exec(text)![1]!
    await Bun.sleep(5)
    expect((await fetch(url('/pub/bin/later.txt'), { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'later' })).status).toBe(201)
    const later = (await trash('/pub/bin/later.txt')).id
    const res = await form('/.admin/trash/empty', { upTo })
    expect(res.status).toBe(303)
    expect(await noticeAfter(res)).toBe('Emptied the trash: 1 item deleted for good\u00a0· 5\u00a0B freed')
    expect((await listing()).map(it => it.id)).toEqual([later])
    expect((await form('/.admin/trash/delete', { id: later })).status).toBe(303)
    const empty = await asOwner('/.admin/trash/empty')
    expect(empty.status).toBe(404)
    expect(await empty.text()).toContain('<code id="error">not_found</code>')
  })
})

describe('Pod status names the space used and free and the biggest folders', () => {
  test('GET /.admin/api/status → 200 with used, free and the top folders biggest first; the page words them, names decoded', async () => {
    expect(
      (
        await fetch(url('/pub/Été photos %231 & co%3F/film.bin'), {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: new Uint8Array(2 * 1024 * 1024),
        })
      ).status,
    ).toBe(201)
    const res = await asOwner('/.admin/api/status', { headers: { 'x-csrf-token': csrf } })
    expect(res.status).toBe(200)
    const status = (await res.json()) as { disk: { usedBytes: number; freeBytes: number }; biggestFolders: { path: string; bytes: number; atLeast: boolean }[] }
    expect(status.disk.usedBytes).toBeGreaterThan(2 * 1024 * 1024)
    expect(status.disk.freeBytes).toBeGreaterThan(0)
    expect(status.biggestFolders.length).toBeGreaterThanOrEqual(2)
    expect(status.biggestFolders.length).toBeLessThanOrEqual(5)
    expect(status.biggestFolders[0]).toEqual({ path: '/pub/', bytes: expect.any(Number), atLeast: false })
    expect(status.biggestFolders[0]!.bytes).toBeGreaterThan(2 * 1024 * 1024)
    expect(status.biggestFolders.map(f => f.path)).toContain('/profile/')
    const sizes = status.biggestFolders.map(f => f.bytes)
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a))
    const page = await (await asOwner('/.admin/status')).text()
    expect(page).toContain('<dt>Biggest folders</dt><dd>/pub/ 2.0\u00a0MB\u00a0· ')
  })
})

describe('Markdown on its file page: rendered, sanitized, the text and the editor one click away', () => {
  const MD = '# Trip notes\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n![cat](https://img.example/cat.png)\n\n[bad](javascript:alert(3))\n'
  const view = (extra = '') => asOwner(`/.admin/files/view?path=${encodeURIComponent('/pub/readme.md')}${extra}`)
  beforeAll(async () => {
    expect((await fetch(url('/pub/readme.md'), { method: 'PUT', headers: { 'content-type': 'text/markdown' }, body: MD })).status).toBe(201)
  })

  test('GET view → 200: the heading rendered; script, onerror and the remote image do not survive; Show images, Show as text and Edit offered', async () => {
    const res = await view()
    expect(res.status).toBe(200)
    const page = await res.text()
    const body = /<div class="markdown">([\s\S]*?)<\/div>/.exec(page)![1]!
    expect(body).toContain('<h1>Trip notes</h1>')
    // no element but the renderer's own: the raw HTML is text (escaped), not markup
    expect(body).not.toMatch(/<(script|img)\b|<[^>]*\bonerror=|javascript:/i)
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
    expect(page).toContain('>Show images</a>')
    expect(page).toContain('>Show as text</a>')
    expect(page).toContain(`href="/.admin/files/edit?path=${encodeURIComponent('/pub/readme.md')}">Edit</a>`)
  })

  test('images=yes → 200 with the remote image, still no script; as=text → the text as written', async () => {
    const shown = await (await view('&images=yes')).text()
    expect(shown).toContain('<img src="https://img.example/cat.png" alt="cat"')
    expect(shown).not.toMatch(/<script>alert|<[^>]*\bonerror=/)
    const text = await view('&as=text')
    expect(text.status).toBe(200)
    expect(await text.text()).toContain('<pre class="preview-text"># Trip notes')
  })
})
