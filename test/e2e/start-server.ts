// Starts the real pod as a subprocess on a loopback port the system picks, with a temporary data directory.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from '../free-port.ts'
import { noteRefusalsInLog } from '../refusals-sent.ts'

export const OWNER_PASSWORD = 'correct horse battery staple'

export interface RunningPod {
  readonly baseUrl: string
  readonly port: number
  readonly dataDir: string
  readonly proc: Subprocess
  /** Everything the server printed so far (stdout + stderr). */
  output(): string
  /** The JSON log stream so far. */
  stdout(): string
  /** What the server printed for a person so far (banner, setup link). */
  stderr(): string
  /** Resolves with the first match of `pattern` in what the server printed (stdout + stderr), once it is printed. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Stops it (SIGTERM) and starts it again on the same port, base URL and data directory. */
  restart(): Promise<void>
  /** Stops and removes the data directory. */
  dispose(): Promise<void>
}

/** For tests that start a server binary by hand: probes a free port (it can race with other processes). */
export { freePort }

export interface StartOptions {
  dataDir?: string
  port?: number
  extraArgs?: string[]
  /** Host of the base URL (default `localhost`): `http://HOST:PORT`. The server listens on 127.0.0.1 either way. */
  baseHost?: string
  /** Start without --owner-password-file: the pod prints a one-time setup link instead (see setupLink). */
  withoutPassword?: boolean
  /** Runs against the data directory before the server starts (e.g. seeding ACLs through the store API). */
  seed?: (dataDir: string, baseUrl: string) => Promise<void>
  /**
   * Serve HTTPS at https://localhost:PORT with this PEM pair. The certificate is also the pod's trusted CA
   * for remote documents (NODE_EXTRA_CA_CERTS), so pods made with one self-signed certificate trust each other.
   */
  tls?: { cert: string; key: string }
  /**
   * Obtain the certificate with ACME (--domain): the base URL is https://DOMAIN:PORT (the port is probed
   * first: the base URL names it), the http-01 challenge is answered on `httpPort`.
   */
  acme?: { domain: string; httpPort: number; directoryUrl: string; caFile: string }
}

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')

/** Starts one `solopod` command (export, import, passwd …) as an operator would; runSolopod waits for it. */
export const spawnSolopod = (...args: string[]) =>
  // process.env as it is now (Bun.spawn's default is the environment the test process started with).
  Bun.spawn([process.execPath, MAIN, ...args, '--log-level', 'warn'], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env } })

/** Runs one `solopod` command to its end, as an operator would. */
export async function runSolopod(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return finishSolopod(spawnSolopod(...args))
}

/** Waits for a command spawnSolopod started: its exit code and what it printed. */
export async function finishSolopod(proc: ReturnType<typeof spawnSolopod>): Promise<{ code: number; stdout: string; stderr: string }> {
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

const SERVING = /solopod: serving (\S+) on \S+:(\d+)/

export async function startPod(opts: StartOptions = {}): Promise<RunningPod> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'solopod-test-'))
  if (opts.seed && opts.port === undefined) {
    // A seed needs the base URL, which names the port: a first start lets the system pick the port
    // (no probe-and-reuse race), then the seed runs on the stopped pod and it starts again on that port.
    const first = await startPod({ ...opts, dataDir, seed: undefined })
    await first.stop()
    return startPod({ ...opts, dataDir, port: first.port })
  }
  const pwFile = join(dataDir, '..', `pw-${basename(dataDir)}`)
  writeFileSync(pwFile, OWNER_PASSWORD)
  const scheme = opts.tls || opts.acme ? 'https' : 'http'
  if (opts.seed) await opts.seed(dataDir, `${scheme}://localhost:${opts.port}`)
  const fixed = (p: number, base = `${scheme}://localhost:${p}`) => ['--port', String(p), '--base-url', base]
  const tls = opts.tls
    ? ['--tls-cert', opts.tls.cert, '--tls-key', opts.tls.key]
    : opts.acme
      ? [
          '--domain',
          opts.acme.domain,
          '--acme-email',
          'owner@example.org',
          '--acme-directory',
          opts.acme.directoryUrl,
          '--acme-ca-file',
          opts.acme.caFile,
          '--http-port',
          String(opts.acme.httpPort),
          '--host',
          '127.0.0.1',
        ]
      : []
  const rest = [...tls, '--data', dataDir, ...(opts.withoutPassword ? [] : ['--owner-password-file', pwFile]), ...(opts.extraArgs ?? [])]
  let out = ''
  const streams = { stdout: '', stderr: '' }
  // Whoever waits for a line is woken by the chunk that brings it, not by a timer.
  const printed = new Set<() => void>()
  const drain = async (stream: ReadableStream<Uint8Array>, name: 'stdout' | 'stderr') => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const text = decoder.decode(chunk.value)
      out += text
      streams[name] += text
      for (const wake of printed) wake()
    }
  }
  /** The first match of `pattern` in the output from `from` on; rejects when `ended` settles first or after `timeoutMs`. */
  const waitFor = (pattern: RegExp, from: number, timeoutMs: number, ended?: Promise<unknown>) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out.slice(from))
        if (m) {
          done()
          resolve(m)
        }
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`not printed within ${timeoutMs} ms: ${pattern}\n${out}`))
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        printed.delete(check)
      }
      void ended?.then(() => {
        done()
        reject(new Error('the pod exited'))
      })
      printed.add(check)
      check()
    })
  const spawn = async (where: string[]) => {
    const from = out.length
    const proc = Bun.spawn([process.execPath, MAIN, 'serve', ...where, ...rest], {
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, ...(opts.tls ? { NODE_EXTRA_CA_CERTS: opts.tls.cert } : {}) },
    })
    const fromLog = streams.stdout.length
    const drained = Promise.all([drain(proc.stdout as ReadableStream<Uint8Array>, 'stdout'), drain(proc.stderr as ReadableStream<Uint8Array>, 'stderr')])
    // the refusals this process sent, for the catalogue's report (test/refusals-sent.ts)
    void drained.then(() => noteRefusalsInLog(streams.stdout.slice(fromLog)))
    // Ready when the pod says where it serves (printed once its handler is in place), or failed when it exits first.
    let serving: RegExpExecArray
    try {
      serving = await waitFor(SERVING, from, 15_000, drained)
    } catch {
      if (proc.exitCode === null) {
        proc.kill()
        throw new Error(`pod did not start: ${out}`)
      }
      throw new Error(`pod exited with ${proc.exitCode}: ${out}`)
    }
    return { proc, baseUrl: serving[1]!, port: Number(serving[2]) }
  }
  // Without a port the server binds port 0 and reports the port it got (its base URL follows it);
  // a base URL on another host than localhost names its port before the start: that one is probed.
  const baseHost = opts.acme?.domain ?? opts.baseHost
  const chosen = opts.port ?? (baseHost ? await freePort() : undefined)
  const started = await spawn(chosen === undefined ? ['--port', '0'] : fixed(chosen, `${scheme}://${baseHost ?? 'localhost'}:${chosen}`))
  const { baseUrl, port } = started
  let proc = started.proc
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill(signal)
      await proc.exited
    }
  }
  return {
    baseUrl,
    port,
    dataDir,
    get proc() {
      return proc
    },
    output: () => out,
    stdout: () => streams.stdout,
    stderr: () => streams.stderr,
    stop,
    waitForOutput: (pattern, timeoutMs = 10_000) => waitFor(pattern, 0, timeoutMs),
    restart: async () => {
      await stop()
      proc = (await spawn(fixed(port, baseUrl))).proc
    },
    dispose: async () => {
      await stop()
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(pwFile, { force: true })
    },
  }
}

/** The one-time setup link a pod started `withoutPassword` printed on its first start. */
export async function setupLink(pod: RunningPod): Promise<string> {
  return (await pod.waitForOutput(/https?:\/\/\S+\/\.admin\/setup\?token=[\w-]+/, 5_000))[0]
}
