// The Files listing in the order the owner picks (name, date, size, type; either way), remembered in a cookie;
// pages keep their order; a folder too large to sort in memory is shown by name, saying so.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { seedMembers } from '../e2e/seed-store.ts'
import { SORT_UP_TO } from '../../src/admin/files-sort.ts'

const BASE = 'http://localhost:3994'
let pod: OwnerPod
const T = Date.parse('2026-01-01T00:00:00Z')
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  // Names, dates, sizes and types each give another order
  await pod.seed('/s/b.ttl', '<#a> <#b> "a much longer document than the other one, by far".')
  await pod.seed('/s/Sub/x.ttl', '<#a> <#b> "c".')
  for (const [name, type, body] of [
    ['a.jpg', 'image/jpeg', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['c.txt', 'text/plain', 'x'],
  ] as const) {
    await Bun.sleep(5)
    expect((await pod.api('PUT', `/s/${name}`, { raw: body, type })).status).toBe(201)
  }
})
afterAll(() => pod.close())

const names = (items: { path: string }[]) => items.map(i => i.path.slice('/s/'.length))
const browse = async (query: string) => {
  const res = await pod.api('GET', `/.admin/api/browse?path=%2Fs%2F&${query}`)
  expect(res.status).toBe(200)
  return res.json()
}

describe('GET /.admin/api/browse?sort=&order=', () => {
  test.each([
    ['', ['Sub/', 'a.jpg', 'b.ttl', 'c.txt']],
    ['sort=name&order=desc', ['c.txt', 'b.ttl', 'a.jpg', 'Sub/']],
    ['sort=modified', ['b.ttl', 'Sub/', 'a.jpg', 'c.txt']],
    ['sort=modified&order=desc', ['c.txt', 'a.jpg', 'Sub/', 'b.ttl']],
    ['sort=size', ['Sub/', 'c.txt', 'a.jpg', 'b.ttl']],
    ['sort=size&order=desc', ['b.ttl', 'a.jpg', 'c.txt', 'Sub/']],
    ['sort=type', ['Sub/', 'a.jpg', 'c.txt', 'b.ttl']],
  ])('%j → %j', async (query, order) => {
    const body = await browse(query)
    expect(names(body.items)).toEqual(order)
    expect(body.sortRefused).toBe(false)
  })

  test.each(['sort=modified', 'sort=size&order=desc', 'sort=name&order=desc'])(
    '%s: pages of 1 walked by next and back by prev see every member once, in order',
    async query => {
      const whole = names((await browse(query)).items)
      const seen: string[] = []
      let page = await browse(`${query}&limit=1`)
      for (;;) {
        seen.push(...names(page.items))
        if (page.next === null) break
        page = await browse(`${query}&limit=1&after=${encodeURIComponent(page.next)}`)
      }
      expect(seen).toEqual(whole)
      const back: string[] = names(page.items)
      while (page.prev !== null) {
        page = await browse(`${query}&limit=1&before=${encodeURIComponent(page.prev)}`)
        back.unshift(...names(page.items))
      }
      expect(back).toEqual(whole)
    },
  )

  test.each([
    ['sort=date', 'sort must be one of name, modified, size, type'],
    ['order=up', 'order must be asc or desc'],
  ])('%s → 400 invalid_query', async (query, description) => {
    const res = await pod.api('GET', `/.admin/api/browse?path=%2Fs%2F&${query}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: 'invalid_query', error_description: description })
  })
})

describe('the Files page remembers the order', () => {
  const page = (query: string, cookie = pod.owner.header()) => pod.request(`/.admin/files?path=%2Fs%2F${query}`, { headers: { cookie } })
  const rowNames = (html: string) => [...html.matchAll(/name="item" value="\/s\/([^"]+)"/g)].map(m => m[1])

  test('a chosen order is shown and remembered for a year; the next visit without one keeps it', async () => {
    const chosen = await page('&sort=size&order=desc')
    expect(chosen.status).toBe(200)
    const cookie = chosen.headers.get('set-cookie')!
    expect(cookie).toBe('files-sort=size.desc; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax')
    const html = await chosen.text()
    expect(rowNames(html)).toEqual(['b.ttl', 'a.jpg', 'c.txt', 'Sub/'])
    expect(html).toContain('<option value="size" selected>Size</option>')
    const again = await page('', `${pod.owner.header()}; files-sort=size.desc`)
    expect(again.headers.get('set-cookie')).toBeNull()
    expect(rowNames(await again.text())).toEqual(['b.ttl', 'a.jpg', 'c.txt', 'Sub/'])
  })

  test('no cookie, or one the pod did not write: by name', async () => {
    expect(rowNames(await (await page('')).text())).toEqual(['Sub/', 'a.jpg', 'b.ttl', 'c.txt'])
    expect(rowNames(await (await page('', `${pod.owner.header()}; files-sort=evil.x`)).text())).toEqual(['Sub/', 'a.jpg', 'b.ttl', 'c.txt'])
  })

  test('a wrong order in the query → 400 invalid_query, nothing remembered', async () => {
    const res = await page('&sort=colour')
    expect(res.status).toBe(400)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await res.text()).toContain('invalid_query')
  })
})

describe(`a folder of more than ${SORT_UP_TO.toLocaleString('en')} items`, () => {
  beforeAll(async () => {
    await pod.seed('/big/', '')
    await seedMembers(pod.store, BASE, '/big/', SORT_UP_TO + 1, T)
  })

  test('by name either way, a page at a time; another order is refused for it and shown by name, saying so', async () => {
    const desc = await (await pod.api('GET', '/.admin/api/browse?path=%2Fbig%2F&sort=name&order=desc&limit=2')).json()
    expect(desc.items.map((i: { path: string }) => i.path)).toEqual(['/big/m010000.ttl', '/big/m009999.ttl'])
    const bySize = await (await pod.api('GET', '/.admin/api/browse?path=%2Fbig%2F&sort=size&order=desc&limit=2')).json()
    expect(bySize).toMatchObject({ sortRefused: true, sort: { key: 'name', order: 'asc' } })
    expect(bySize.items.map((i: { path: string }) => i.path)).toEqual(['/big/m000000.ttl', '/big/m000001.ttl'])
    const html = await (await pod.request('/.admin/files?path=%2Fbig%2F&sort=size', { headers: { cookie: pod.owner.header() } })).text()
    expect(html).toContain('Sorted by name: sorting by date, size or type is offered for folders of up to 10,000 items.')
  })
})
