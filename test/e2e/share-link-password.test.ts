// Share links with a password and with a download limit, over real HTTP (issue 38): `solopod links add
// --password-file F --max-downloads N` against the running pod; the browser's form → cookie → file, HTTP Basic
// from the machine itself, wrong and missing passwords, the limits per link and per address (the pod trusts
// the loopback proxy, so X-Forwarded-For names the client), the download limit, and no password in the log.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { ownerScript } from './owner-script.ts'
import { LINK_PASSWORD_LIMITS } from '../../src/links/link-password.ts'

let pod: RunningPod
const PASSWORD = 'correct horse battery staple'
const dir = mkdtempSync(join(tmpdir(), 'link-pw-'))
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const basic = (pw: string) => ({ authorization: `Basic ${Buffer.from(`anyone:${pw}`).toString('base64')}` })
const from = (address: string) => ({ 'x-forwarded-for': address })

function passwordFile(text: string): string {
  const file = join(dir, `pw-${Math.random().toString(36).slice(2)}`)
  writeFileSync(file, text)
  return file
}

/** The link's URL; its id is kept in `ids` by URL. */
async function addLink(...args: string[]): Promise<string> {
  const r = await runSolopod('links', 'add', ...args, '--data', pod.dataDir)
  expect(r.code).toBe(0)
  const [id, url] = r.stdout.split('\n').map(l => l.slice(l.indexOf('=') + 1))
  ids.set(url!, id!)
  return url!
}
const ids = new Map<string, string>()
const listedLine = async (url: string) =>
  (await runSolopod('links', 'list', '--data', pod.dataDir)).stdout.split('\n').find(l => l.startsWith(`${ids.get(url)}\t`))
const passwordLink = () => addLink('/private/report.txt', '--password-file', passwordFile(`${PASSWORD}\n`))
const postPassword = (url: string, pw: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...FORM, ...HTML, ...headers }, body: new URLSearchParams({ 'link-password': pw }), redirect: 'manual' })

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--log-level', 'debug', '--trust-proxy', '127.0.0.1,::1'] })
  const send = await ownerScript(pod)
  expect((await send('PUT', '/private/report.txt', 'the secret report', { 'content-type': 'text/plain' })).status).toBe(201)
})
afterAll(async () => {
  await pod?.dispose()
})

describe('solopod links add --password-file', () => {
  test('an empty password file is refused: exit 2 and a sentence', async () => {
    const r = await runSolopod('links', 'add', '/private/report.txt', '--password-file', passwordFile('\n'), '--data', pod.dataDir)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is empty')
    expect(r.stdout).toBe('')
  })
})

describe('a link with a password', () => {
  let url: string
  beforeAll(async () => {
    url = await passwordLink()
  })

  test('without it, a browser gets the form: 401', async () => {
    const res = await fetch(url, { headers: HTML })
    expect(res.status).toBe(401)
    // no Basic challenge: the browser would ask with its own dialog instead of showing the form
    expect(res.headers.get('www-authenticate')).toBeNull()
    const page = await res.text()
    expect(page).toContain('name="link-password"')
    expect(page).toContain('method="post"')
  })

  test('without it, another client gets 401 link_password_required and a Basic challenge', async () => {
    const res = await fetch(url)
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('link_password_required:')
    expect(res.headers.get('www-authenticate')).toStartWith('Basic ')
  })

  test('the right password in the form: a cookie for this link only, then the file', async () => {
    const res = await postPassword(url, PASSWORD)
    expect(res.status).toBe(303)
    const cookie = res.headers.get('set-cookie')!
    const path = new URL(url).pathname
    expect(cookie).toContain(`; Path=${path};`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).not.toContain('Secure')
    const file = await fetch(url, { headers: { cookie: cookie.split(';')[0]! } })
    expect(file.status).toBe(200)
    expect(await file.text()).toBe('the secret report')
    // a made-up session opens nothing
    expect((await fetch(url, { headers: { cookie: 'solopod-link=forged' } })).status).toBe(401)
  })

  test('a wrong password in the form: 401 link_password_wrong, and the form again', async () => {
    const res = await postPassword(url, 'wrong', from('198.51.100.1'))
    expect(res.status).toBe(401)
    const page = await res.text()
    expect(page).toContain('link_password_wrong')
    expect(page).toContain('name="link-password"')
  })

  test('a form posted from another origin is refused: 403 csrf_failed', async () => {
    const res = await postPassword(url, PASSWORD, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  test('a password form larger than 8 KiB is refused unread: 413 payload_too_large', async () => {
    const res = await postPassword(url, 'x'.repeat(9000))
    expect(res.status).toBe(413)
  })

  test('HTTP Basic from the machine itself (any user name): the file', async () => {
    const res = await fetch(url, { headers: basic(PASSWORD) })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('the secret report')
  })

  test('a wrong Basic password: 401 link_password_wrong', async () => {
    const res = await fetch(url, { headers: basic('nope') })
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('link_password_wrong:')
  })

  test('Basic over plain http from elsewhere is refused, even the right password: 401 link_password_required', async () => {
    const res = await fetch(url, { headers: { ...basic(PASSWORD), ...from('198.51.100.3') } })
    expect(res.status).toBe(401)
    expect(await res.text()).toStartWith('link_password_required:')
  })
})

describe('wrong passwords are limited', () => {
  const { max } = LINK_PASSWORD_LIMITS.perLink

  test(`per link: after ${max} wrong ones (from anywhere), 429 too_many_requests with Retry-After, even for the right one`, async () => {
    const url = await passwordLink()
    for (let i = 0; i < max; i++) expect((await postPassword(url, 'guess', from(`203.0.113.${i + 1}`))).status).toBe(401)
    // Basic from the machine itself is limited by the link's count too
    const right = await fetch(url, { headers: basic(PASSWORD) })
    expect(right.status).toBe(429)
    expect(await right.text()).toStartWith('too_many_requests:')
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0)
    const page = await postPassword(url, PASSWORD, from('203.0.113.201'))
    expect(page.status).toBe(429)
    expect(await page.text()).toContain('even the right password is refused')
    // Refusals are not uses: the link was never used
    expect(await listedLine(url)).toEndWith('\t0 uses\tpassword')
  })

  test(`per address: after ${LINK_PASSWORD_LIMITS.perAddress.max} wrong ones over several links, 429 on another; other addresses go on`, async () => {
    const links = [await passwordLink(), await passwordLink(), await passwordLink()]
    const n = LINK_PASSWORD_LIMITS.perAddress.max
    for (let i = 0; i < n; i++) expect((await postPassword(links[i % 2]!, 'guess', from('192.0.2.7'))).status).toBe(401)
    const res = await postPassword(links[2]!, PASSWORD, from('192.0.2.7'))
    expect(res.status).toBe(429)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await res.text()).toContain('too_many_requests')
    expect(res.headers.get('retry-after')).not.toBeNull()
    // from elsewhere (the loopback address itself), the right password still opens it
    expect((await fetch(links[2]!, { headers: basic(PASSWORD) })).status).toBe(200)
  })
})

describe('solopod links add --max-downloads', () => {
  test('each full download counts; a Range, a HEAD and the page do not; past the limit 410 link_used_up', async () => {
    const url = await addLink('/private/report.txt', '--max-downloads', '2')
    expect((await fetch(url, { headers: HTML })).status).toBe(200)
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200)
    expect((await fetch(url, { headers: { range: 'bytes=0-3' } })).status).toBe(206)
    expect((await fetch(url)).status).toBe(200)
    expect(await (await fetch(`${url}?download`)).text()).toBe('the secret report')
    const used = await fetch(url)
    expect(used.status).toBe(410)
    expect(await used.text()).toStartWith('link_used_up:')
    expect((await fetch(url, { headers: HTML })).status).toBe(410)
    // the page and the two downloads were served; the HEAD, the Range and the refusals were not uses
    expect(await listedLine(url)).toEndWith('\t3 uses\t2 of 2 downloads')
  })
})

test("the password, and no link's token, is ever in the log (debug level)", () => {
  expect(ids.size).toBeGreaterThan(4)
  for (const url of ids.keys()) expect(pod.output()).not.toContain(url.split('/').at(-2)!)
  expect(pod.output()).toContain('link.unlocked')
  expect(pod.output()).not.toContain(PASSWORD)
  expect(pod.output()).not.toContain(Buffer.from(`anyone:${PASSWORD}`).toString('base64'))
})

test('each refusal of a password is explained in the log, without the link’s token', () => {
  const refused = pod
    .stdout()
    .split('\n')
    .filter(l => l.includes('"request.refused"') && l.includes('/.links/'))
    .map(l => JSON.parse(l) as { code: string; path: string })
  const codes = new Set(refused.map(r => r.code))
  expect(codes.has('link_password_required')).toBe(true)
  expect(codes.has('link_password_wrong')).toBe(true)
  for (const r of refused) expect(r.path).toStartWith('/.links/(token)')
})
