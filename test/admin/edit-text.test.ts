// The edit page for plain text and Markdown, the conflict's two answers (reload, or keep my version with
// the newer ETag: a third change is a conflict again), and refusals in plain words first on the pages.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, type CookieJar, type TestPod } from '../op/op-fixture.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
/** An awkward name, as the pod keeps it: percent-encoded where a path must be ('&' may stay as it is). */
const NOTE = '/notes/%C3%89t%C3%A9%20notes%20%231%20&%20co%3F.md'
const asOwner = () => ({ cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf })
const put = (path: string, body: string, type = 'text/markdown') => pod.request(path, { method: 'PUT', headers: { ...asOwner(), 'content-type': type }, body })
const stored = async (path: string) => {
  const res = await pod.request(path, { headers: asOwner() })
  return { text: await res.text(), type: res.headers.get('content-type') }
}
const editHtml = async (path: string) =>
  (await pod.request(`/.admin/files/edit?path=${encodeURIComponent(path)}`, { headers: { cookie: owner.header() } })).text()
const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll('&quot;', '"')

beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  expect((await put(NOTE, '# Été\n\n- swim\n')).status).toBe(201)
})
afterAll(() => pod.close())

describe('plain text and Markdown are edited like Turtle', () => {
  test('the edit page shows the Markdown in a box labelled Markdown, with its type and version', async () => {
    const html = await editHtml(NOTE)
    expect(html).toContain('<label for="edit-text">Markdown</label>')
    expect(html).toContain('# Été\n\n- swim\n</textarea>')
    expect(field(html, 'type')).toBe('text/markdown')
    expect(field(html, 'version')).toMatch(/^(W\/)?".+"$/)
    expect(html).toContain('data-enhance="unsaved"')
    expect(html).toContain('<h1>Edit Été notes #1 &amp; co?.md</h1>')
  })
  test('saved → 303 to the page saying Saved; the file holds the text, still Markdown', async () => {
    const res = await ctx.post('/.admin/files/edit', {
      csrf,
      path: NOTE,
      type: 'text/markdown',
      version: field(await editHtml(NOTE), 'version')!,
      text: '# Été\n\n- swim\n- eat\n',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/.admin/files/edit?path=${encodeURIComponent(NOTE)}&done=saved`)
    expect(await stored(NOTE)).toEqual({ text: '# Été\n\n- swim\n- eat\n', type: 'text/markdown' })
  })
  test('a type that is not edited here → 400 invalid_field, nothing written', async () => {
    const res = await ctx.post('/.admin/files/edit', {
      csrf,
      path: NOTE,
      type: 'text/html',
      version: field(await editHtml(NOTE), 'version')!,
      text: '<script>1</script>',
    })
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_field')
    expect((await stored(NOTE)).text).toBe('# Été\n\n- swim\n- eat\n')
  })
  test('the view page of a Markdown file offers Edit', async () => {
    const html = await (await pod.request(`/.admin/files/view?path=${encodeURIComponent(NOTE)}`, { headers: { cookie: owner.header() } })).text()
    expect(html).toContain(`href="/.admin/files/edit?path=${encodeURIComponent(NOTE)}">Edit</a>`)
    // Markdown is shown rendered, its text one click away (view-page.ts)
    expect(html).toContain('Été</h1>')
    const asText = await (await pod.request(`/.admin/files/view?path=${encodeURIComponent(NOTE)}&as=text`, { headers: { cookie: owner.header() } })).text()
    expect(asText).toContain('<pre class="preview-text"># Été')
  })
})

describe('two tabs: a conflict offers both choices', () => {
  test('412: plain words first, the code small, Reload and Keep my version; the newer text shown and kept', async () => {
    const old = field(await editHtml(NOTE), 'version')!
    expect((await put(NOTE, 'their text\n')).status).toBe(204)
    const res = await ctx.post('/.admin/files/edit', { csrf, path: NOTE, type: 'text/markdown', version: old, text: 'my text\n' })
    expect(res.status).toBe(412)
    const html = await res.text()
    expect(html).toMatch(
      /<div class="error" role="alert"><p class="plain"><strong>Someone changed this document while you were editing: reload it, or keep your version.<\/strong><\/p>.*<p class="code">Error code: <code id="error">changed_meanwhile<\/code><\/p><\/div>/s,
    )
    expect(html).toContain(
      `<a class="button secondary small" href="/.admin/files/edit?path=${encodeURIComponent(NOTE)}">Reload (lose my changes)</a> <button type="submit" form="edit-form">Keep my version</button>`,
    )
    expect(html).toContain('<pre class="preview-text" id="their-text">their text\n</pre>')
    expect(html).toContain('my text\n</textarea>')
    const newer = field(html, 'version')!
    expect(newer).not.toBe(old)
    expect((await stored(NOTE)).text).toBe('their text\n')
    // Keep my version: the same form, with the newer ETag, saves over theirs
    const keep = await ctx.post('/.admin/files/edit', { csrf, path: NOTE, type: 'text/markdown', version: newer, text: 'my text\n' })
    expect(keep.status).toBe(303)
    expect((await stored(NOTE)).text).toBe('my text\n')
  })
  test('a third change between the conflict and "Keep my version" is a conflict again, nothing overwritten', async () => {
    const old = field(await editHtml(NOTE), 'version')!
    expect((await put(NOTE, 'second\n')).status).toBe(204)
    const conflict = await ctx.post('/.admin/files/edit', { csrf, path: NOTE, type: 'text/markdown', version: old, text: 'mine\n' })
    expect(conflict.status).toBe(412)
    const newer = field(await conflict.text(), 'version')!
    expect((await put(NOTE, 'third\n')).status).toBe(204)
    const keep = await ctx.post('/.admin/files/edit', { csrf, path: NOTE, type: 'text/markdown', version: newer, text: 'mine\n' })
    expect(keep.status).toBe(412)
    expect(await pageError(keep)).toBe('changed_meanwhile')
    expect((await stored(NOTE)).text).toBe('third\n')
  })
  test('deleted meanwhile: the conflict says so, and keeping my version creates it again', async () => {
    const path = '/notes/gone.txt'
    expect((await put(path, 'x', 'text/plain')).status).toBe(201)
    const old = field(await editHtml(path), 'version')!
    expect((await pod.request(path, { method: 'DELETE', headers: asOwner() })).status).toBe(204)
    const res = await ctx.post('/.admin/files/edit', { csrf, path, type: 'text/plain', version: old, text: 'back\n' })
    expect(res.status).toBe(412)
    const html = await res.text()
    expect(html).toContain('The document was deleted meanwhile')
    expect(field(html, 'version')).toBe('')
    expect((await ctx.post('/.admin/files/edit', { csrf, path, type: 'text/plain', version: '', text: 'back\n' })).status).toBe(303)
    expect(await stored(path)).toEqual({ text: 'back\n', type: 'text/plain' })
  })
})

describe('refusals in plain words first, the description after, the code small', () => {
  test.each([['/.admin/files/view?path=%2Fnotes%2Fnope.md', 404, 'not_found', 'This is not here: it was moved or deleted, or the address is wrong.']])(
    'GET %s',
    async (path, status, code, plain) => {
      const res = await pod.request(path, { headers: { cookie: owner.header() } })
      expect(res.status).toBe(status)
      const html = await res.text()
      expect(html).toContain(`<div class="error" role="alert"><p class="plain"><strong>${plain}</strong></p><p>`)
      expect(/id="error">([a-z_]+)</.exec(html)?.[1]).toBe(code)
    },
  )
  test('the preview route refuses HTML: 415 in plain words, the description kept', async () => {
    expect((await put('/notes/p.html', '<p>x</p>', 'text/html')).status).toBe(201)
    const res = await pod.request('/.admin/files/preview?path=%2Fnotes%2Fp.html', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(415)
    const html = await res.text()
    expect(html).toContain(
      '<p class="plain"><strong>The pod does not take this kind of file here.</strong></p><p>Text/html is not shown in the page; download it instead.</p>',
    )
    expect(html).toContain('<code id="error">unsupported_media_type</code>')
  })
  test('a stale form (403 csrf_failed) says to reload', async () => {
    const res = await ctx.post('/.admin/files/edit', { csrf: 'x'.repeat(43), path: NOTE, text: 'x' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This page is out of date (it was opened before you last signed in): reload it and try again.')
  })
  test('a refusal with no plain sentence shows its description alone', async () => {
    const res = await pod.request('/.admin/files/edit?path=%2Fnotes%2F', { headers: { cookie: owner.header() } })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('<div class="error" role="alert"><p>/notes/ is a folder')
  })
})

describe('a text box sends CRLF: the document keeps the line endings it had', () => {
  test.each([
    ['lf', 'a\nb\n', 'a\nb\nc\n'],
    ['crlf', 'a\r\nb\r\n', 'a\r\nb\r\nc\r\n'],
  ])('%s', async (newline, before, after) => {
    const path = `/notes/${newline}.txt`
    expect((await put(path, before, 'text/plain')).status).toBe(201)
    const html = await editHtml(path)
    expect(field(html, 'newline')).toBe(newline)
    const res = await ctx.post('/.admin/files/edit', { csrf, path, type: 'text/plain', version: field(html, 'version')!, newline, text: 'a\r\nb\r\nc\r\n' })
    expect(res.status).toBe(303)
    expect((await stored(path)).text).toBe(after)
  })
})
