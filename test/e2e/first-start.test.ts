// A new owner's first start from a terminal: the banner, a quiet log, a setup link on request, --version.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startPod, type RunningPod } from './start-server.ts'
import pkg from '../../package.json' with { type: 'json' }

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const SETUP_LINK = /http:\/\/localhost:\d+\/\.admin\/setup\?token=[\w-]{43}/g

async function run(args: string[]) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

async function waitFor(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(25)
  }
}

/** Every line of the log stream is one JSON object. */
const logLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(l => l !== '')
    .map(l => JSON.parse(l) as Record<string, unknown>)

/** Sets a password through the setup form, as the browser does. */
async function useSetupLink(link: string, password: string): Promise<Response> {
  const page = await fetch(link)
  const cookie = page.headers
    .getSetCookie()
    .map(c => c.split(';')[0])
    .join('; ')
  const html = await page.text()
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!
  return fetch(new URL('/.admin/setup', link), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: new URL(link).origin },
    body: new URLSearchParams({ csrf: field('csrf'), token: field('token'), password, confirm: password }),
  })
}

describe('first start without a password', () => {
  let pod: RunningPod
  beforeAll(async () => {
    pod = await startPod({ withoutPassword: true })
    await waitFor(() => pod.stderr().includes('New link'), 'the banner')
  })
  afterAll(() => pod.dispose())

  test('a short human banner on stderr names the URL, WebID, data directory and the setup link', () => {
    const banner = pod.stderr()
    expect(banner).toContain(`solopod: serving ${pod.baseUrl} on 127.0.0.1:${pod.port}`)
    expect(banner).toContain(`Version   solopod ${pkg.version}`)
    expect(banner).toContain(`URL       ${pod.baseUrl}/`)
    expect(banner).toContain(`WebID     ${pod.baseUrl}/profile/card#me`)
    expect(banner).toContain(`Data      ${pod.dataDir}`)
    expect(banner.match(SETUP_LINK)).toHaveLength(1)
    expect(banner).toContain(`solopod setup-link --data ${pod.dataDir}`)
  })

  test('stdout is the JSON log stream only, and never holds the setup link', () => {
    const events = logLines(pod.stdout()).map(l => l.event)
    expect(events).toContain('server.listening')
    expect(pod.stdout()).not.toContain('token=')
  })

  test('at the default level a request writes no access line; refusals are still explained', async () => {
    await fetch(`${pod.baseUrl}/profile/card`)
    await fetch(`${pod.baseUrl}/`, { headers: { accept: 'text/turtle' } })
    await waitFor(() => pod.stdout().includes('request.refused'), 'the refusal line')
    const events = logLines(pod.stdout()).map(l => l.event)
    expect(events).not.toContain('request')
  })

  test('/.admin/sessions before any password leads to a page that says how to set one', async () => {
    const res = await fetch(`${pod.baseUrl}/.admin/sessions`)
    expect(res.status).toBe(200)
    expect(new URL(res.url).pathname).toBe('/.oidc/login')
    const page = await res.text()
    expect(page).toContain('No password is set')
    expect(page).toContain('<code>solopod setup-link</code>')
  })

  test('solopod setup-link, run while the server runs, prints a new link that sets the password', async () => {
    const r = await run(['setup-link', '--data', pod.dataDir])
    expect(r.code).toBe(0)
    const [link] = r.stdout.match(SETUP_LINK) ?? []
    expect(link).toStartWith(`${pod.baseUrl}/.admin/setup?token=`)
    expect(pod.stderr()).not.toContain(link!)
    expect(pod.stdout()).not.toContain(link!.split('token=')[1]!)
    await waitFor(() => pod.stdout().includes('owner.setup_link_issued'), 'the issue event')
    const set = await useSetupLink(link!, 'first password of the owner')
    expect(set.status).toBe(200)
    expect(await set.text()).toContain('Password set')
  })

  test("the control socket is only for the server's user; without it, setup-link says what is wrong (exit 2)", async () => {
    expect(statSync(join(pod.dataDir, 'run')).mode & 0o777).toBe(0o700)
    expect(statSync(join(pod.dataDir, 'run', 'control.sock')).mode & 0o777).toBe(0o600)
    rmSync(join(pod.dataDir, 'run', 'control.sock'))
    const r = await run(['setup-link', '--data', pod.dataDir])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`a solopod process holds ${pod.dataDir} but did not answer`)
    expect(r.stdout).not.toContain('token=')
  })
})

describe('a forgotten password (server at --log-level debug)', () => {
  let pod: RunningPod
  beforeAll(async () => {
    pod = await startPod({ extraArgs: ['--log-level', 'debug'] })
  })
  afterAll(() => pod.dispose())

  test('the sign-in page says how to reset it', async () => {
    const page = await (await fetch(`${pod.baseUrl}/.oidc/login`)).text()
    expect(page).toContain('Forgot the password?')
    expect(page).toContain('<code>solopod setup-link</code>')
    expect(page).toContain('<code>solopod passwd</code>')
  })

  test('--log-level debug adds one access line per request (method, path, status, ms; never the query)', async () => {
    await fetch(`${pod.baseUrl}/.oidc/login?return=/.admin/sessions`)
    await waitFor(() => pod.stdout().includes('"event":"request"'), 'an access line')
    const line = logLines(pod.stdout()).find(l => l.event === 'request' && l.path === '/.oidc/login')!
    expect(line).toMatchObject({ level: 'debug', method: 'GET', status: 200 })
    expect(typeof line.ms).toBe('number')
    expect(JSON.stringify(line)).not.toContain('return=')
  })

  test('setup-link with the server stopped writes the token itself; the link resets the password after a restart', async () => {
    await pod.stop()
    const r = await run(['setup-link', '--data', pod.dataDir])
    expect(r.code).toBe(0)
    const [link] = r.stdout.match(SETUP_LINK) ?? []
    expect(link).toStartWith(`${pod.baseUrl}/.admin/setup?token=`)
    const again = await startPod({ dataDir: pod.dataDir, port: pod.port })
    try {
      expect(again.stderr()).not.toContain('token=')
      expect((await useSetupLink(link!, 'a brand new password')).status).toBe(200)
      expect(await (await fetch(link!)).text()).toContain('invalid_setup_token')
    } finally {
      await again.stop()
    }
  })

  test('setup-link on a directory without a pod exits 2 and says so', async () => {
    const r = await run(['setup-link', '--data', join(pod.dataDir, 'nothing-here')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('holds no pod yet')
  })
})

describe('solopod --version', () => {
  test('prints the version of package.json', async () => {
    const r = await run(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`solopod ${pkg.version}\n`)
  })
})
