// Scripts and bots over real HTTP (issue 24): `solopod clients add` against the running pod (its control socket)
// and a stopped one, the documented script (docs/apps.md; examples/client-credentials.mjs) reading and writing inside its
// folders and refused outside them, and a token the owner revokes in the dashboard refused while unexpired.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { documentation } from '../documentation.ts'
import { CookieJar, FORM, dpopProof, field, form, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { OWNER_PASSWORD, runSolopod, startPod, type RunningPod } from './start-server.ts'
import { csrfToken } from './owner-login.ts'

const EXAMPLE = join(import.meta.dir, '..', '..', 'examples', 'client-credentials.mjs')
/** The documentation runs the script with Node.js; Bun runs it the same where Node.js is missing. */
const RUNTIME = Bun.which('node') ?? process.execPath

let pod: RunningPod
let photos: Credential

interface Credential {
  id: string
  secret: string
}

/** `solopod clients add …`: exactly two lines on stdout. */
async function addClient(...args: string[]): Promise<Credential> {
  const r = await runSolopod('clients', 'add', ...args, '--data', pod.dataDir)
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/^client_id=script-[\w-]{22}\nclient_secret=[\w-]{43}\n$/)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  return { id: id!, secret: secret! }
}

/** The documented script, as an operator runs it: `node examples/client-credentials.mjs URL [TEXT]`. */
async function runScript(c: Credential, path: string, text?: string) {
  const proc = Bun.spawn([RUNTIME, EXAMPLE, pod.baseUrl + path, ...(text !== undefined ? [text] : [])], {
    env: { ...process.env, SOLOPOD_CLIENT_ID: c.id, SOLOPOD_CLIENT_SECRET: c.secret },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

/** A token held by the test, as a long-running bot keeps one between requests. */
async function tokenOf(c: Credential, key: DpopKey): Promise<Response> {
  const url = `${pod.baseUrl}/.oidc/token`
  return fetch(url, {
    method: 'POST',
    body: 'grant_type=client_credentials',
    headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${c.id}:${c.secret}`)}`, dpop: await dpopProof(key, 'POST', url, Date.now()) },
  })
}
const getWith = async (token: string, key: DpopKey, path: string) =>
  fetch(pod.baseUrl + path, {
    headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', pod.baseUrl + path, Date.now(), { accessToken: token }) },
  })

beforeAll(async () => {
  pod = await startPod()
  // A document of the owner's, written by a script with full access
  const owner = await addClient('--name', 'Owner script')
  const wrote = await runScript(owner, '/private/diary.txt', 'Dear diary')
  expect(wrote).toMatchObject({ code: 0, stdout: 'Dear diary' })
  photos = await addClient('--name', 'Photo backup', '--scope', '/photos/', '--scope', '/Été photos/')
})
afterAll(async () => {
  await pod?.dispose()
})

describe('the documented script with a credential limited to /photos/ and /Été photos/', () => {
  test('writes and reads inside its folders', async () => {
    expect(await runScript(photos, '/photos/hello.txt', 'Hello from a script')).toMatchObject({ code: 0, stdout: 'Hello from a script' })
    expect(await runScript(photos, '/%C3%89t%C3%A9%20photos/plage.txt', 'la plage')).toMatchObject({ code: 0, stdout: 'la plage' })
  })

  test("is refused the owner's document outside them: 403 outside_app_scope", async () => {
    const r = await runScript(photos, '/private/diary.txt')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('GET: 403 outside_app_scope')
    expect(r.stdout).toBe('')
  })

  test('a wrong secret: 401 invalid_client at the token endpoint', async () => {
    const r = await runScript({ id: photos.id, secret: 'A'.repeat(43) }, '/photos/hello.txt')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('token: 401')
    expect(r.stderr).toContain('"error":"invalid_client"')
  })

  test('clients list, through the running pod, shows it used, its folders, and never a secret', async () => {
    const r = await runSolopod('clients', 'list', '--data', pod.dataDir)
    expect(r.code).toBe(0)
    const line = r.stdout.split('\n').find(l => l.startsWith(photos.id))!
    expect(line).toContain('Photo backup\tonly to read and write /photos/, to read and write /Été photos/\tcreated ')
    expect(line).toMatch(/last used \d{4}-/)
    expect(r.stdout).not.toContain(photos.secret)
  })
})

test('the documentation shows this very script, whole', () => {
  expect(documentation()).toContain(`\`\`\`js\n${readFileSync(EXAMPLE, 'utf8')}\`\`\``)
})

test("no secret and no token is in the pod's log", () => {
  expect(pod.output()).not.toContain(photos.secret)
  expect(pod.output()).not.toContain('eyJ')
})

describe('tokens over HTTP', () => {
  test('a token request without a DPoP proof: 400 invalid_dpop_proof', async () => {
    const res = await fetch(`${pod.baseUrl}/.oidc/token`, {
      method: 'POST',
      body: 'grant_type=client_credentials',
      headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${photos.id}:${photos.secret}`)}` },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_dpop_proof')
  })

  test('the token sent as Bearer: 401 invalid_token', async () => {
    const { access_token: token } = await (await tokenOf(photos, await newDpopKey())).json()
    const res = await fetch(`${pod.baseUrl}/photos/hello.txt`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })
})

describe("the pod's metrics are the owner's, not a script's", () => {
  // X-Forwarded-For from loopback: a client behind a proxy on the machine, so not local and the token decides
  const metricsWith = async (token: string, key: DpopKey) => {
    const url = `${pod.baseUrl}/.well-known/solopod/metrics`
    return fetch(url, {
      headers: { 'x-forwarded-for': '203.0.113.7', authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url, Date.now(), { accessToken: token }) },
    })
  }
  test('a client credential, limited or with full access, gets 403 forbidden', async () => {
    for (const credential of [photos, await addClient('--name', 'Full script')]) {
      const key = await newDpopKey()
      const { access_token: token } = await (await tokenOf(credential, key)).json()
      const res = await metricsWith(token, key)
      expect(res.status).toBe(403)
      expect(await res.text()).toStartWith('forbidden:')
    }
  })
})

describe('revoking in the dashboard', () => {
  test('the same unexpired token is refused on its next request (401 invalid_token), and the script gets no new one', async () => {
    const bot = await addClient('--name', 'Nightly bot', '--scope', 'read:/photos/')
    const key = await newDpopKey()
    const { access_token: token, expires_in } = await (await tokenOf(bot, key)).json()
    expect((await getWith(token, key, '/photos/hello.txt')).status).toBe(200)
    // the owner signs in and removes it in the dashboard's API
    const jar = new CookieJar()
    const page = await jar.take(await fetch(`${pod.baseUrl}/.oidc/login`)).text()
    jar.take(
      await fetch(`${pod.baseUrl}/.oidc/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': FORM, cookie: jar.header(), origin: pod.baseUrl },
        body: form({ csrf: field(page, 'csrf'), interaction: '', return: '', password: OWNER_PASSWORD }),
      }),
    )
    const csrf = await csrfToken(pod.baseUrl, jar)
    const removed = await fetch(`${pod.baseUrl}/.admin/api/credentials/${bot.id}`, {
      method: 'DELETE',
      headers: { cookie: jar.header(), 'x-csrf-token': csrf, origin: pod.baseUrl },
    })
    expect(removed.status).toBe(204)
    expect(expires_in).toBeGreaterThan(60)
    const refused = await getWith(token, key, '/photos/hello.txt')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const again = await runScript(bot, '/photos/hello.txt')
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('"error":"invalid_client"')
  })
})

describe('solopod clients on a stopped pod', () => {
  test('add opens its database; the pod started again honours the credential and its folder', async () => {
    await pod.stop()
    const r = await runSolopod('clients', 'add', '--name', 'Offline made', '--scope', 'read:/photos/', '--data', pod.dataDir)
    expect(r.code).toBe(0)
    const [id, secret] = r.stdout
      .trim()
      .split('\n')
      .map(l => l.slice(l.indexOf('=') + 1))
    expect(r.stderr).toContain('only to read /photos/')
    await pod.restart()
    const c = { id: id!, secret: secret! }
    expect(await runScript(c, '/photos/hello.txt')).toMatchObject({ code: 0, stdout: 'Hello from a script' })
    expect((await runScript(c, '/photos/new.txt', 'no')).stderr).toContain('PUT: 403 outside_app_scope')
    // and remove, on the running pod again
    const gone = await runSolopod('clients', 'remove', c.id, '--data', pod.dataDir)
    expect(gone.code).toBe(0)
    expect((await runScript(c, '/photos/hello.txt')).stderr).toContain('"error":"invalid_client"')
  })

  test('a folder that is not a path: exit 2 with the reason, nothing on stdout', async () => {
    const r = await runSolopod('clients', 'add', '--name', 'Bad', '--scope', 'photos', '--data', pod.dataDir)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('must be a path on this pod starting with /')
  })
})
