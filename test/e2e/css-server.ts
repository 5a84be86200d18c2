// A Community Solid Server (the dev dependency @solid/community-server 7) as another person's pod and
// OpenID provider: started by a test as a Node child process on a loopback port, in memory (nothing on disk),
// stopped by its PID; an account with a password login and a pod made through CSS's own account API.

import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from './start-server.ts'

const ROOT = join(import.meta.dir, '..', '..')
const CSS_BIN = join(ROOT, 'node_modules', '@solid', 'community-server', 'bin', 'server.js')
// listens on loopback only, and ends if the test runner dies before it could stop it
const PRELOAD = join(import.meta.dir, 'fixtures', 'css-preload.cjs')
/** CSS loads ~900 Components.js components before it listens: seconds on an idle machine, more on a busy one. */
const START_TIMEOUT_MS = 60_000
const STOP_GRACE_MS = 5_000

export interface RunningCss {
  /** CSS base URLs end with a slash; it is also its issuer (`solid:oidcIssuer <http://localhost:PORT/>`). */
  readonly baseUrl: string
  readonly proc: Subprocess
  /** What CSS printed so far (it logs warnings and errors only). */
  output(): string
  /** Ends the process by its PID (SIGTERM, then SIGKILL); safe to call twice or after a failed start. */
  stop(): Promise<void>
}

export interface CssAccount {
  readonly email: string
  readonly password: string
  readonly webId: string
  readonly pod: string
}

async function stopProcess(proc: Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  proc.kill('SIGTERM')
  const ended = await Promise.race([proc.exited.then(() => true), Bun.sleep(STOP_GRACE_MS).then(() => false)])
  if (!ended) {
    proc.kill('SIGKILL')
    await proc.exited
  }
}

/** Starts CSS in memory on a free loopback port; resolves once its OpenID configuration answers. */
export async function startCss(): Promise<RunningCss> {
  const node = Bun.which('node')
  if (!node) throw new Error('the Community Solid Server is a Node program: node is not on PATH')
  const port = await freePort()
  const baseUrl = `http://localhost:${port}/`
  // `bun test` sets NODE_ENV=test, which CSS takes for a Jest run (dist/identity/IdentityUtil.js then calls
  // jest.requireActual and its OpenID provider never starts): CSS runs as it would for anyone.
  const { NODE_ENV: _test, JEST_WORKER_ID: _jest, ...env } = process.env
  const proc = Bun.spawn(
    [node, '--require', PRELOAD, CSS_BIN, '--config', '@css:config/default.json', '--baseUrl', baseUrl, '--port', String(port), '--loggingLevel', 'warn'],
    // its own directory as the Components.js module root, so the lookup does not depend on the caller's cwd
    { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' },
  )
  let out = ''
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) out += decoder.decode(chunk.value)
  }
  void drain(proc.stdout as ReadableStream<Uint8Array>)
  void drain(proc.stderr as ReadableStream<Uint8Array>)
  const css: RunningCss = { baseUrl, proc, output: () => out, stop: () => stopProcess(proc) }
  const deadline = Date.now() + START_TIMEOUT_MS
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the Community Solid Server exited with ${proc.exitCode}:\n${out}`)
      const answer = await fetch(`${baseUrl}.well-known/openid-configuration`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined)
      if (answer?.status === 200) return css
      if (Date.now() > deadline) throw new Error(`the Community Solid Server did not answer within ${START_TIMEOUT_MS} ms:\n${out}`)
      await Bun.sleep(250)
    }
  } catch (err) {
    await css.stop()
    throw err
  }
}

/** One request to CSS's account JSON API (it answers JSON, and never redirects: a `location` field instead). */
async function accountApi(url: string, token: string | undefined, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json', ...(token ? { authorization: `CSS-Account-Token ${token}` } : {}) }
  const res = await fetch(url, body ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) } : { headers })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`CSS account API ${body ? 'POST' : 'GET'} ${url}: ${res.status} ${text.slice(0, 500)}`)
  return JSON.parse(text) as Record<string, unknown>
}

type Controls = Record<string, Record<string, string>>

/**
 * As CSS's own registration page does (CSS 7 "Account management JSON API"): create an account, add an
 * email/password login (`controls.password.create`), create a pod (`controls.account.pod`) whose WebID
 * CSS makes and links to the account, with CSS as its `solid:oidcIssuer`.
 */
export async function createCssAccount(css: RunningCss, o: { email: string; password: string; podName: string }): Promise<CssAccount> {
  const index = `${css.baseUrl}.account/`
  const created = await accountApi(((await accountApi(index, undefined)).controls as Controls).account!.create!, undefined, {})
  const token = created.authorization
  if (typeof token !== 'string') throw new Error(`CSS made an account without an authorization token: ${JSON.stringify(created)}`)
  const controls = (await accountApi(index, token)).controls as Controls
  await accountApi(controls.password!.create!, token, { email: o.email, password: o.password })
  const pod = await accountApi(controls.account!.pod!, token, { name: o.podName })
  if (typeof pod.webId !== 'string' || typeof pod.pod !== 'string') throw new Error(`CSS made a pod without a WebID: ${JSON.stringify(pod)}`)
  return { email: o.email, password: o.password, webId: pod.webId, pod: pod.pod }
}
