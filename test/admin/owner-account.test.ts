// The owner's account in the dashboard (issue 26): the password changed with the current one (API and form
// without JavaScript), every refusal with its exact status and code and nothing changed by it; the picture
// uploaded, public and linked from the WebID; the header's name, picture and Sign out.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BASE, CookieJar, PASSWORD, logIn } from '../op/op-fixture.ts'
import { openFormPod, pageError, testApiGuards, testFormGuards, type FormPod } from './owner-forms.ts'
import { verifyOwnerPassword } from '../../src/account/owner-account.ts'
import { listLoginSessions } from '../../src/account/owner-session.ts'
import { MAX_PICTURE_BYTES } from '../../src/admin/profile-picture.ts'
import { WRONG_PASSWORD_LIMIT } from '../../src/admin/change-password.ts'

let ctx: FormPod
beforeAll(async () => {
  ctx = await openFormPod()
})
afterAll(() => ctx.pod.close())

const api = (method: string, path: string, o: { jar?: CookieJar; origin?: string; body?: BodyInit; type?: string; length?: string } = {}) =>
  ctx.pod.request(`/.admin/api${path}`, {
    method,
    headers: {
      cookie: (o.jar ?? ctx.owner).header(),
      origin: o.origin ?? BASE,
      'x-csrf-token': ctx.csrf,
      'content-type': o.type ?? 'application/json',
      ...(o.length ? { 'content-length': o.length } : {}),
    },
    ...(o.body !== undefined ? { body: o.body } : {}),
  })
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), c => c.charCodeAt(0))

describe('the password, changed in the dashboard (POST /.admin/api/password)', () => {
  const change = (fields: Record<string, string>) => api('POST', '/password', { body: JSON.stringify(fields) })
  testApiGuards(
    (method, path, o) => api(method, path, { ...o, body: '{}' }),
    [
      ['POST', '/password'],
      ['POST', '/profile/picture'],
    ],
  )

  test.each([
    ['a wrong current password', { current: 'not it at all', password: 'Fresh-Pass-1', confirm: 'Fresh-Pass-1' }, 403, 'wrong_current_password'],
    ['no current password', { password: 'Fresh-Pass-1', confirm: 'Fresh-Pass-1' }, 403, 'wrong_current_password'],
    ['new passwords that differ', { current: PASSWORD, password: 'Fresh-Pass-1', confirm: 'Fresh-Pass-2' }, 400, 'passwords_differ'],
    ['a new password that is too short', { current: PASSWORD, password: 'short', confirm: 'short' }, 400, 'weak_password'],
  ] as const)('%s → refused with its code, the password unchanged', async (_, fields, status, code) => {
    const res = await change(fields)
    expect(res.status).toBe(status)
    const body = await res.text()
    expect(JSON.parse(body).error).toBe(code)
    for (const typed of Object.values(fields)) expect(body).not.toContain(typed) // no password comes back
    expect(await verifyOwnerPassword(ctx.pod.store, PASSWORD)).toBe(true)
  })

  test('a body that is not an object → 400 invalid_request', async () => {
    const res = await change([] as unknown as Record<string, string>)
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toBe('invalid_request')
  })

  test('the right one: changed; the other browser is signed out, this one stays; the new password is the one checked', async () => {
    const other = new CookieJar()
    await logIn(ctx.pod, other)
    expect((await listLoginSessions(ctx.pod.store, ctx.pod.clock.now)).length).toBe(2)
    const res = await change({ current: PASSWORD, password: 'a much better one', confirm: 'a much better one' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ loginsEnded: 1, appSessionsEnded: 0 })
    expect(await verifyOwnerPassword(ctx.pod.store, 'a much better one')).toBe(true)
    expect((await ctx.pod.request('/.admin/api/profile', { headers: { cookie: other.header(), origin: BASE } })).status).toBe(401)
    expect((await ctx.pod.request('/.admin/api/profile', { headers: { cookie: ctx.owner.header(), origin: BASE } })).status).toBe(200)
    // and back, through the form without JavaScript
    const back = await ctx.post('/.admin/password', { csrf: ctx.csrf, current: 'a much better one', password: PASSWORD, confirm: PASSWORD })
    expect(back.status).toBe(303)
    expect(back.headers.get('location')).toBe('/.admin/profile?done=password&ended=0')
    expect(await verifyOwnerPassword(ctx.pod.store, PASSWORD)).toBe(true)
  })
})

describe('the password form without JavaScript (POST /.admin/password)', () => {
  testFormGuards(() => ctx, [['/.admin/password', { current: PASSWORD, password: 'new password 1', confirm: 'new password 1' }]])
  test.each([
    [{ current: 'wrong one!', password: 'new password 1', confirm: 'new password 1' }, 403, 'wrong_current_password'],
    [{ current: PASSWORD, password: 'new password 1', confirm: 'other password' }, 400, 'passwords_differ'],
    [{ current: PASSWORD, password: 'short', confirm: 'short' }, 400, 'weak_password'],
  ] as const)('%o → %d, the profile page again with %s at its field, the password unchanged', async (fields, status, code) => {
    const res = await ctx.post('/.admin/password', { csrf: ctx.csrf, ...fields })
    expect(res.status).toBe(status)
    const page = await res.text()
    const field = { wrong_current_password: 'password-current', passwords_differ: 'password-confirm', weak_password: 'password-new' }[code]
    // a sentence for a person, the code small after it as on the error pages (not "the current … (wrong_current_password)")
    expect(page).toMatch(new RegExp(`<p class="field-error" id="${field}-error">[A-Z][^<]*\\. <span class="code">Error code: <code>${code}</code></span></p>`))
    expect(page).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`))
    expect(await verifyOwnerPassword(ctx.pod.store, PASSWORD)).toBe(true)
  })
  test.each([
    ['0', 'Password changed. No other browser was signed in.'],
    ['1', 'Password changed. Signed out in 1 other browser.'],
    ['3', 'Password changed. Signed out in 3 other browsers.'],
    ['<b>', 'Password changed. No other browser was signed in.'],
  ])('after the change, ended=%s: the page says "%s"', async (ended, notice) => {
    const page = await (
      await ctx.pod.request(`/.admin/profile?done=password&ended=${encodeURIComponent(ended)}`, { headers: { cookie: ctx.owner.header() } })
    ).text()
    expect(page).toContain(`<p class="notice" role="status">${notice}</p>`)
  })
  test('the profile page holds the form, new passwords at least 8 characters', async () => {
    const page = await (await ctx.pod.request('/.admin/profile', { headers: { cookie: ctx.owner.header() } })).text()
    expect(page).toContain('action="/.admin/password"')
    expect(page).toContain('autocomplete="current-password"')
    expect(page).toContain('minlength="8"')
  })
})

describe('the picture (POST /.admin/api/profile/picture, and the form without JavaScript)', () => {
  test('an image: stored at /profile/picture.png, anyone may read it, the WebID links it (vcard:hasPhoto)', async () => {
    const res = await api('POST', '/profile/picture', { type: 'image/png', body: PNG })
    expect(res.status).toBe(200)
    const got = (await res.json()) as { picture: string; profile: { fields: { picture: { value: string } } } }
    expect(got.picture).toBe(`${BASE}/profile/picture.png`)
    expect(got.profile.fields.picture.value).toBe(`${BASE}/profile/picture.png`)
    const anyone = await ctx.pod.request('/profile/picture.png')
    expect(anyone.status).toBe(200)
    expect(new Uint8Array(await anyone.arrayBuffer())).toEqual(PNG)
    const card = await (await ctx.pod.request('/profile/card', { headers: { accept: 'text/turtle' } })).text()
    expect(card).toContain('vcard:hasPhoto <picture.png>')
    // Only the picture is public: the folder stays the owner's
    expect((await ctx.pod.request('/profile/picture.png.acl')).status).toBe(401)
  })

  test('a JPEG after the PNG: the WebID links the JPEG, and the PNG (and its ACL) are gone', async () => {
    const jpeg = await api('POST', '/profile/picture', { type: 'image/jpeg', body: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]) })
    expect(jpeg.status).toBe(200)
    expect((await ctx.pod.request('/profile/picture.jpg')).status).toBe(200)
    expect((await ctx.pod.request('/profile/picture.png', { headers: { cookie: ctx.owner.header(), origin: BASE, 'x-csrf-token': ctx.csrf } })).status).toBe(
      404,
    )
    expect(
      (await ctx.pod.request('/profile/picture.png.acl', { headers: { cookie: ctx.owner.header(), origin: BASE, 'x-csrf-token': ctx.csrf } })).status,
    ).toBe(404)
    expect(await (await ctx.pod.request('/profile/card', { headers: { accept: 'text/turtle' } })).text()).toContain('vcard:hasPhoto <picture.jpg>')
  })

  test('SVG → 415 unsupported_media_type, nothing stored', async () => {
    const res = await api('POST', '/profile/picture', {
      type: 'image/svg+xml',
      body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    })
    expect(res.status).toBe(415)
    expect(await errorOf(res)).toBe('unsupported_media_type')
    expect((await ctx.pod.request('/profile/picture.svg', { headers: { cookie: ctx.owner.header() } })).status).not.toBe(200)
  })

  test('larger than 5 MiB → 413 payload_too_large, nothing changed', async () => {
    const big = new Uint8Array(MAX_PICTURE_BYTES + 1)
    const res = await api('POST', '/profile/picture', { type: 'image/jpeg', body: big })
    expect(res.status).toBe(413)
    expect(await errorOf(res)).toBe('payload_too_large')
    expect((await (await ctx.pod.request('/profile/picture.jpg')).arrayBuffer()).byteLength).toBe(4) // the JPEG before it
  })

  test('the form without JavaScript: a file → 303 "Picture saved"; none → 400 no_file; without the token → 403 csrf_failed', async () => {
    const send = (fields: Record<string, string>, file?: File) => {
      const body = new FormData()
      for (const [k, v] of Object.entries(fields)) body.append(k, v)
      if (file) body.append('picture', file)
      return ctx.pod.request('/.admin/profile/picture', { method: 'POST', headers: { cookie: ctx.owner.header(), origin: BASE }, body })
    }
    const ok = await send({ csrf: ctx.csrf }, new File([PNG], 'me.png', { type: 'image/png' }))
    expect(ok.status).toBe(303)
    expect(ok.headers.get('location')).toBe('/.admin/profile?done=picture')
    const none = await send({ csrf: ctx.csrf })
    expect(none.status).toBe(400)
    expect(await pageError(none)).toBe('no_file')
    const forged = await send({}, new File([PNG], 'me.png', { type: 'image/png' }))
    expect(forged.status).toBe(403)
    expect(await pageError(forged)).toBe('csrf_failed')
  })
})

describe("the dashboard's header", () => {
  test('the name and picture instead of the WebID, and a Sign out form to the OP', async () => {
    expect((await api('POST', '/profile', { body: JSON.stringify({ fields: { name: 'Alice Liddell' } }) })).status).toBe(200)
    const page = await (await ctx.pod.request('/.admin/', { headers: { cookie: ctx.owner.header() } })).text()
    expect(page).toContain('<span class="visually-hidden">Signed in as </span><span class="who-name" id="who-name">Alice Liddell</span>')
    expect(page).not.toContain('/profile/card#me</span>')
    expect(page).toContain(`id="who-picture" src="${BASE}/profile/picture.png"`)
    expect(page).toMatch(/<form class="inline" method="post" action="\/\.oidc\/session\/end">.*name="confirm" value="yes".*Sign out<\/button>/s)
  })
})

describe('guessing the password through the change form (a stolen session cookie)', () => {
  test(`after ${WRONG_PASSWORD_LIMIT.max} wrong current passwords → 429 too_many_attempts, even for the right one; another session is not held up`, async () => {
    const thief = new CookieJar()
    await logIn(ctx.pod, thief)
    const page = await thief.take(await ctx.pod.request('/.admin/files', { headers: { cookie: thief.header() } })).text()
    const token = /name="csrf" value="([^"]+)"/.exec(page)![1]!
    const guess = (current: string) =>
      ctx.pod.request('/.admin/api/password', {
        method: 'POST',
        headers: { cookie: thief.header(), origin: BASE, 'x-csrf-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ current, password: 'Fresh-Pass-1', confirm: 'Fresh-Pass-1' }),
      })
    for (let i = 0; i < WRONG_PASSWORD_LIMIT.max; i++) expect((await guess(`guess ${i}`)).status).toBe(403)
    const held = await guess(PASSWORD)
    expect(held.status).toBe(429)
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await errorOf(held)).toBe('too_many_attempts')
    expect(await verifyOwnerPassword(ctx.pod.store, PASSWORD)).toBe(true)
    const mine = await api('POST', '/password', { body: JSON.stringify({ current: 'wrong again', password: 'Fresh-Pass-1', confirm: 'Fresh-Pass-1' }) })
    expect(await errorOf(mine)).toBe('wrong_current_password')
  })
})
