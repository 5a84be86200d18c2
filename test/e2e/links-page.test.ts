// Issue 38 over real HTTP, the owner's side: a share link made from the share page's form (its URL shown once,
// and a stranger opening it), the Links page listing it, Remove (then the link answers 404 link_not_found),
// the forms' CSRF guard and a stranger sent to sign in.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, FORM, form } from '../op/op-fixture.ts'
import { ownerForms, type OwnerForms } from './owner-login.ts'
import { startPod, type RunningPod } from './start-server.ts'
import { ownerScript } from './owner-script.ts'

let pod: RunningPod
let owner: OwnerForms

const url = (path: string) => pod.baseUrl + path
/** Every link URL a page showed, to check no log line holds its token. */
const made: string[] = []
const shownUrl = (body: string) => {
  const url = body.match(/id="new-link" value="([^"]+)"/)?.[1]
  if (url) made.push(url)
  return url
}

beforeAll(async () => {
  pod = await startPod()
  const send = await ownerScript(pod)
  expect((await send('PUT', '/private/report.txt', 'the secret report', { 'content-type': 'text/plain' })).status).toBe(201)
  expect((await send('PUT', '/elsewhere.txt', 'not under /private/', { 'content-type': 'text/plain' })).status).toBe(201)
  owner = await ownerForms(pod)
}, 60_000)
afterAll(() => pod?.dispose())

describe('share links in the dashboard', () => {
  let link = ''

  test('the share page has the "Send a link to anyone" form; a file offers view and download only', async () => {
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(body).toContain('Send a link to anyone')
    expect(body).toContain(`action="/.admin/links/add"`)
    expect(body).toContain('value="read" checked')
    expect(body).not.toContain('value="upload"')
    expect(body).toContain('<option value="7d" selected>')
    const folder = await (await owner.page('/.admin/share?path=/private/')).text()
    expect(folder).toContain('value="upload"')
    expect(folder).toContain('value="read-upload"')
  })

  test('Create link shows the URL once (200), and a stranger opens it', async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '7d', name: 'for the plumber' })
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('shown only this once')
    link = shownUrl(body)!
    expect(link).toMatch(new RegExp(`^${pod.baseUrl}/\\.links/[\\w-]{43}/$`))
    const stranger = await fetch(link)
    expect(stranger.status).toBe(200)
    expect(await stranger.text()).toBe('the secret report')
    // the share page lists it, without the URL (never stored in clear)
    const share = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(share).toContain('for the plumber')
    expect(share).not.toContain(link)
  })

  test('an upload link for a file is refused: 400 invalid_request; an unknown expiry 400 invalid_field', async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'upload', expires: '7d' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">invalid_request</code>')
    const res2 = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '3y' })
    expect(res2.status).toBe(400)
    expect(await res2.text()).toContain('<code id="error">invalid_field</code>')
  })

  test('the Links page lists it with path, what it allows, expiry and uses; the navigation links it', async () => {
    const res = await owner.page('/.admin/links')
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).toContain('href="/.admin/links" aria-current="page"')
    expect(body).toContain('for the plumber')
    expect(body).toContain('/<wbr>private/<wbr>report.txt')
    expect(body).toContain('View and download')
    expect(body).toContain('in 7 days')
    expect(body).toMatch(/data-label="Uses">1</)
  })

  test('Remove without the CSRF token: 403 csrf_failed, the link still opens', async () => {
    const body = await (await owner.page('/.admin/links')).text()
    const id = body.match(/name="id" value="(link-[\w-]+)"/)![1]!
    const res = await owner.postForm('/.admin/links/remove', { id }, { csrf: 'wrong' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('csrf_failed')
    expect((await fetch(link)).status).toBe(200)
  })

  test('Remove: 303 back with a notice; the link then answers 404 link_not_found, and a second Remove 404', async () => {
    const body = await (await owner.page('/.admin/links')).text()
    const id = body.match(/name="id" value="(link-[\w-]+)"/)![1]!
    const res = await owner.postForm('/.admin/links/remove', { id })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/links?done=removed')
    expect(await (await owner.page('/.admin/links?done=removed')).text()).toContain('Link removed')
    const gone = await fetch(link)
    expect(gone.status).toBe(404)
    expect(await gone.text()).toContain('link_not_found')
    const again = await owner.postForm('/.admin/links/remove', { id })
    expect(again.status).toBe(404)
    expect(await again.text()).toContain('link_not_found')
  })

  test('Remove from the share page goes back there', async () => {
    // "never" is offered once the owner set no maximum (account/link-expiry.ts)
    expect((await owner.postForm('/.admin/links/settings', { defaultExpiry: '7d', maxExpiry: 'none' })).status).toBe(303)
    const made = await owner.postForm('/.admin/links/add', { path: '/private/', allows: 'read-upload', expires: 'never' })
    expect(made.status).toBe(200)
    const share = await (await owner.page('/.admin/share?path=/private/')).text()
    expect(share).toContain('View and upload')
    expect(share).toContain('>never<')
    const id = share.match(/name="id" value="(link-[\w-]+)"/)![1]!
    const res = await owner.postForm('/.admin/links/remove', { id, from: '/private/' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/share?path=%2Fprivate%2F&done=link-removed')
  })

  test('a stranger is sent to sign in (303), and cannot post the forms (401)', async () => {
    const res = await owner.page('/.admin/links', new CookieJar())
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('/.oidc/login')
    const post = await fetch(url('/.admin/links/add'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM, origin: pod.baseUrl },
      body: form({ csrf: 'x', path: '/private/', allows: 'read' }),
    })
    expect(post.status).toBe(401)
  })
})

describe('"Why may someone do something here?" and the share page name the links that open an item', () => {
  const make = async (fields: Record<string, string>) => {
    const res = await owner.postForm('/.admin/links/add', { expires: '7d', ...fields })
    expect(res.status).toBe(200)
    return shownUrl(await res.text())!
  }
  const idsOf = (body: string) => [...body.matchAll(/name="id" value="(link-[\w-]+)"/g)].map(m => m[1]!)

  test("the file names its own link and its folder's read link, with what each allows, expiry and password; not an upload-only one", async () => {
    await make({ path: '/private/report.txt', allows: 'read', name: 'for the plumber' })
    const folder = await make({ path: '/private/', allows: 'read', name: 'for the team' })
    await make({ path: '/private/', allows: 'upload', name: 'the drop box' })
    expect((await fetch(`${folder}report.txt`)).status).toBe(200)
    const body = await (await owner.page('/.admin/share?path=/private/report.txt&agent=public')).text()
    const why = body.slice(body.indexOf('id="check-h"'))
    expect(why).toContain('public may do nothing here.')
    const named = why.slice(why.indexOf('<ul id="check-links">'), why.indexOf('</ul>', why.indexOf('<ul id="check-links">')))
    expect(named).toMatch(/“for the plumber” <code>link-[\w-]+<\/code>: view and download \(here: read\); expires in 7 days<\/li>/)
    expect(named).toMatch(
      /“for the team” <code>link-[\w-]+<\/code>: view and download \(here: read\), through the link to <a href="\/\.admin\/share\?path=%2Fprivate%2F"><code>\/private\/<\/code><\/a>; expires in 7 days<\/li>/,
    )
    expect(named).not.toContain('the drop box')
    // The share page's own list: both links with their expiry and uses, each with Remove; the folder's says what it opens
    const list = body.slice(body.indexOf('id="link-h"'), body.indexOf('id="check-h"'))
    expect(list).toContain('for the plumber')
    expect(list).toContain('for the team')
    expect(list).not.toContain('the drop box')
    expect(list).toMatch(
      /<td data-label="Opens"><a href="\/\.admin\/share\?path=%2Fprivate%2F"><code><span class="url">\/<wbr>private\/<\/span><\/code><\/a><\/td><td data-label="Allows">View and download<\/td><td data-label="Expires">in 7 days<\/td><td data-label="Uses">1<\/td>/,
    )
    expect(idsOf(list)).toHaveLength(2)
  })

  test('the folder names its upload-only link (here: append) too', async () => {
    const body = await (await owner.page('/.admin/share?path=/private/')).text()
    const why = body.slice(body.indexOf('id="check-h"'))
    expect(why).toContain('“the drop box”')
    expect(why).toContain('upload only (here: append)')
    expect(why).toContain('“for the team”')
    expect(why).not.toContain('for the plumber')
  })

  test('the owner API answers the same links (shareLinks), and a removed link is named nowhere', async () => {
    const ask = async () =>
      (await (
        await fetch(url(`/.admin/api/access?agent=public&resource=${encodeURIComponent(url('/private/report.txt'))}`), {
          headers: { cookie: owner.jar.header() },
        })
      ).json()) as { shareLinks?: { id: string; name: string; path: string; allows: string; modes: string[]; expiresAt?: string }[] }
    const before = (await ask()).shareLinks ?? []
    expect(before.map(l => [l.name, l.path, l.allows, l.modes])).toEqual([
      ['for the plumber', '/private/report.txt', 'read', ['read']],
      ['for the team', '/private/', 'read', ['read']],
    ])
    expect(before[0]!.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    const res = await owner.postForm('/.admin/links/remove', { id: before[1]!.id, from: '/private/report.txt' })
    expect(res.status).toBe(303)
    expect(((await ask()).shareLinks ?? []).map(l => l.name)).toEqual(['for the plumber'])
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(body).not.toContain('for the team')
    const none = await (await owner.page('/.admin/share?path=/elsewhere.txt')).text()
    expect(none).toContain('No share link opens this item.')
  })
})

describe('the form offers a password and a download limit', () => {
  const SECRET = 'open sesame, plumber'
  const basic = (pw: string) => ({ authorization: `Basic ${Buffer.from(`x:${pw}`).toString('base64')}` })

  test('the share page asks for both, optional', async () => {
    const body = await (await owner.page('/.admin/share?path=/private/report.txt')).text()
    expect(body).toContain('<input type="password" id="link-password" name="password" maxlength="1024" autocomplete="new-password"')
    expect(body).toContain('<input type="number" id="link-max-downloads" name="maxDownloads" min="1" max="1000000"')
  })

  test('a link with both: it asks for the password, allows one whole download, and the lists say so', async () => {
    const res = await owner.postForm('/.admin/links/add', {
      path: '/private/report.txt',
      allows: 'read',
      expires: '1d',
      name: 'guarded',
      password: SECRET,
      maxDownloads: '1',
    })
    expect(res.status).toBe(200)
    const shown = await res.text()
    expect(shown).toContain('It asks for the password you chose')
    expect(shown).toContain('It allows 1 whole download, then opens nothing.')
    expect(shown).not.toContain(SECRET)
    const link = shownUrl(shown)!
    const locked = await fetch(link)
    expect(locked.status).toBe(401)
    expect(await locked.text()).toStartWith('link_password_required:')
    const wrong = await fetch(link, { headers: basic('not it') })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toStartWith('link_password_wrong:')
    const file = await fetch(link, { headers: basic(SECRET) })
    expect(file.status).toBe(200)
    expect(await file.text()).toBe('the secret report')
    const again = await fetch(link, { headers: basic(SECRET) })
    expect(again.status).toBe(410)
    expect(await again.text()).toStartWith('link_used_up:')
    const list = await (await owner.page('/.admin/links')).text()
    expect(list).toContain('<td data-label="Allows">View and download, with a password, 1 of 1 downloads</td>')
    expect(list).not.toContain(SECRET)
  })

  test('empty fields: no password, no limit', async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '1d', password: '', maxDownloads: '' })
    expect(res.status).toBe(200)
    const shown = await res.text()
    expect(shown).not.toContain('It asks for the password')
    expect(shown).not.toContain('whole download')
    const link = shownUrl(shown)!
    for (let i = 0; i < 2; i++) expect((await fetch(link)).status).toBe(200)
  })

  test('a download limit that is not a whole number from 1 to 1000000: 400 invalid_field, no link made', async () => {
    const before = (await (await owner.page('/.admin/links')).text()).match(/name="id"/g)?.length
    for (const maxDownloads of ['0', 'two', '1.5', '-3', '1000001']) {
      const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '1d', maxDownloads })
      expect(res.status, maxDownloads).toBe(400)
      expect(await res.text()).toContain('<code id="error">invalid_field</code>')
    }
    expect((await (await owner.page('/.admin/links')).text()).match(/name="id"/g)?.length).toBe(before)
  })

  test('a password longer than 1024 characters: 400 invalid_request', async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/report.txt', allows: 'read', expires: '1d', password: 'x'.repeat(1025) })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code id="error">invalid_request</code>')
  })

  test('the password, and no link made from the dashboard, is in any log line', () => {
    expect(pod.output()).not.toContain(SECRET)
    expect(made.length).toBeGreaterThan(3)
    for (const link of made) expect(pod.output()).not.toContain(link.split('/').at(-2)!)
  })
})

describe('the Activity page shows what strangers added through a file drop', () => {
  test("each upload is one row: added <file> through the link '<name>', newest first; filtered by folder; the owner's own writes are not", async () => {
    const res = await owner.postForm('/.admin/links/add', { path: '/private/', allows: 'upload', expires: '1d', name: 'the inbox' })
    const link = shownUrl(await res.text())!
    for (const name of ['first.txt', 'second.txt'])
      expect((await fetch(link, { method: 'POST', body: name, headers: { slug: name, 'content-type': 'text/plain' } })).status).toBe(201)
    const body = await (await owner.page('/.admin/activity')).text()
    expect(body).toMatch(
      /<td data-label="What">added <a href="\/\.admin\/history\?path=%2Fprivate%2Fsecond\.txt">\/private\/second\.txt<\/a> through the link 'the inbox'<\/td>/,
    )
    expect(body.indexOf('second.txt')).toBeLessThan(body.indexOf('first.txt'))
    // one presentation: no panel of its own, each upload named once
    expect(body).not.toContain('Added through share links')
    expect(body.match(/>\/private\/first\.txt<\/a>/g)).toHaveLength(1)
    expect(body).not.toMatch(/created <a href="[^"]*">\/private\/first\.txt/)
    expect(body).not.toMatch(/report\.txt<\/a> through the link/)
    expect(await (await owner.page('/.admin/activity?folder=/private/')).text()).toContain("first.txt</a> through the link 'the inbox'")
    expect(await (await owner.page('/.admin/activity?folder=/other/')).text()).not.toContain('through the link')
    // the folder's history names the link too
    expect(await (await owner.page('/.admin/history?path=/private/')).text()).toContain("second.txt</a> through the link 'the inbox'")
  })
})
