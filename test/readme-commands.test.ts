// Every command in the documentation's `sh` blocks (README.md and docs/*.md, test/documentation.ts) works
// as written: run here in a scratch checkout, or named with the place that runs it (.ci/run, another test).
// A command added to the documentation without an entry below fails this test, and so does an entry the
// documentation no longer has.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from './e2e/start-server.ts'
import { documentation } from './documentation.ts'
import pkg from '../package.json' with { type: 'json' }

const ROOT = join(import.meta.dir, '..')
/** A private network namespace (user namespaces) with its own loopback, and curl to ask inside it. */
const canIsolateNetwork = Bun.spawnSync(['unshare', '-rn', 'sh', '-c', 'ip link set lo up && command -v curl']).exitCode === 0
const DOCUMENTATION = documentation()
const withoutSpace = (text: string) => text.replace(/\s+/g, '')

/** Commands run elsewhere, and the file whose text must contain them as written. */
const ELSEWHERE: Record<string, { file: string; text: string }> = {
  'npm install && npm test': { file: '.ci/run', text: 'npm install && npm test' },
  'npm test': { file: '.ci/run', text: 'npm install && npm test' },
  'npm run typecheck': { file: '.ci/run', text: 'npm run typecheck' },
  'npm run format:check': { file: '.ci/run', text: 'npm run format:check' },
  // it rewrites the checkout's files: what it runs is the formatter whose check CI runs
  'npm run format': { file: 'package.json', text: '"format": "biome format --write"' },
  'npm run build:ui': { file: 'package.json', text: '"pretest": "node test/check-test-tools.mjs && bun src/build-deps.ts && bun src/build-ui.ts"' },
  'npm run build:deps': { file: 'package.json', text: '"pretest": "node test/check-test-tools.mjs && bun src/build-deps.ts && bun src/build-ui.ts"' },
  'npm run bench': { file: '.ci/run', text: 'npm run bench' },
  'npm run soak -- --minutes 60': { file: '.ci/run', text: 'npm run soak -- --minutes' },
  'npm run build': { file: 'test/e2e/build.test.ts', text: "['npm', 'run', 'build']" },
  // the SolidOS recipe: the test installs the same mashlib as a dev dependency and serves its dist/ as the recipe does
  'npm pack mashlib@2.3.3 && tar xzf mashlib-2.3.3.tgz': { file: 'package.json', text: '"mashlib": "^2.3.3"' },
  'cd package/dist && python3 -m http.server 8080': { file: 'test/browser/mashlib-site.ts', text: "'node_modules', 'mashlib', 'dist'" },
  // not run inside the suite it is part of: the test checks what it selects
  'npm run test:unit': { file: 'test/check-test-tools.test.ts', text: "pkg.scripts['test:unit']" },
  // the running pod's control socket and a stopped pod's database; the documented script, run against a real server
  'npm run solopod -- clients add --name "Photo backup" --scope /photos/ --scope "/Été photos/" --data ./data': {
    file: 'test/e2e/client-credentials.test.ts',
    text: "addClient('--name', 'Photo backup', '--scope', '/photos/', '--scope', '/Été photos/')",
  },
  'npm run solopod -- clients list --data ./data': {
    file: 'test/e2e/client-credentials.test.ts',
    text: "runSolopod('clients', 'list', '--data', pod.dataDir)",
  },
  'SOLOPOD_CLIENT_ID=script-… SOLOPOD_CLIENT_SECRET=… node examples/client-credentials.mjs http://localhost:3000/photos/hello.txt "Hello from a script"': {
    file: 'test/e2e/client-credentials.test.ts',
    text: "runScript(photos, '/photos/hello.txt', 'Hello from a script')",
  },
  // needs a bucket: the same flags against a real Ceph RGW on loopback (skipped, saying so, where Ceph is not installed)
  'dist/solopod serve --blob-store s3://my-pod-files/alice --s3-endpoint https://s3.example.net --s3-region us-east-1': {
    file: 'test/s3/pod-on-ceph.ts',
    text: "['--blob-store', `s3://${engine.bucket}/${prefix}`, '--s3-endpoint', engine.endpoint]",
  },
  // needs a bucket and a running pod: the same flags against a real Ceph RGW (skipped, saying so, without Ceph)
  'AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… dist/solopod blobs move --data /var/lib/solopod --to s3://my-pod-files/alice --s3-endpoint https://s3.example.net --s3-region us-east-1':
    {
      file: 'test/s3/blobs-move.slow.test.ts',
      text: "const toS3 = (prefix: string) => ['--to', `s3://${engine.bucket}/${prefix}`, '--s3-endpoint', engine.endpoint]",
    },
  'dist/solopod blobs move --data /var/lib/solopod --to local': {
    file: 'test/s3/blobs-move.slow.test.ts',
    text: "spawnSolopod('blobs', 'move', '--data', pod.dataDir, '--to', 'local')",
  },
  // needs a public DNS name, ports 80 and 443 and Let's Encrypt: the same flags against pebble, on unprivileged ports
  'sudo dist/solopod serve --domain pod.example --acme-email me@example.org --data /var/lib/solopod': {
    file: 'test/e2e/start-server.ts',
    text: "['--domain', opts.acme.domain, '--acme-email', 'owner@example.org', '--acme-directory'",
  },
  // root and systemd: the unit is verified and the commands' paths checked against it
  'npm run build && sudo install -m 755 dist/solopod /usr/local/bin/solopod && sudo install -m 644 deploy/solopod.service /etc/systemd/system/': {
    file: 'test/deploy/systemd-unit.test.ts',
    text: "'npm run build && sudo install -m 755 dist/solopod /usr/local/bin/solopod && sudo install -m 644 deploy/solopod.service /etc/systemd/system/'",
  },
  "printf 'SOLOPOD_DOMAIN=pod.example\\nSOLOPOD_ACME_EMAIL=me@example.org\\n' | sudo tee /etc/solopod.env": {
    file: 'test/deploy/systemd-unit.test.ts',
    text: "SOLOPOD_DOMAIN=pod.example\\\\nSOLOPOD_ACME_EMAIL=me@example.org\\\\n' | sudo tee /etc/solopod.env",
  },
  'sudo systemctl daemon-reload && sudo systemctl enable --now solopod': {
    file: 'test/deploy/systemd-unit.test.ts',
    text: "'sudo systemctl daemon-reload && sudo systemctl enable --now solopod'",
  },
  'npm start -- --base-url https://pod.example --port 3000 --trust-proxy 127.0.0.1': {
    file: 'test/browser/nginx-proxy.ts',
    text: 'npm start -- --base-url https://pod.example --port 3000 --trust-proxy 127.0.0.1',
  },
}

/**
 * Run by this test, in this order (tests below). Of `npm install && npm start` the test runs `npm start`:
 * `npm install` would reinstall the scratch checkout's linked node_modules; .ci/run runs it on a clean
 * checkout (`npm install && npm test`).
 */
const RUN_HERE = [
  'npm install && npm start',
  'npm run solopod -- setup-link',
  'npm start -- --owner-password-file ./owner-password.txt',
  'npm run solopod -- passwd --owner-password-file ./owner-password.txt',
  'npm run solopod -- --help',
  'npm run solopod -- --version',
  'npm run solopod -- export ~/backups/pod-2026-11-23 --data ./data',
  'npm run solopod -- import ~/backups/pod-2026-11-23 --data ./new-data --base-url https://pod.example',
  'openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 365 -subj /CN=localhost -addext subjectAltName=DNS:localhost -keyout key.pem -out cert.pem',
  'npm start -- --port 3443 --base-url https://localhost:3443 --tls-cert cert.pem --tls-key key.pem',
  'npm run solopod -- keys add --data ./data --name laptop',
  'npm run solopod -- import ~/Downloads/solopod-backup-20261123T120000Z.tar.gz --data ./new-data --base-url https://pod.example',
]

/** Each command of each ```sh block (a line, joined with the next where it ends in `\\`), without its `# comment`. */
function readmeCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(m => m[1]!.replace(/\\\n\s*/g, ''))
  return blocks
    .flatMap(b => b.split('\n'))
    .map(l => l.replace(/\s+#.*$/, '').trim())
    .filter(l => l !== '')
}

describe("the documentation's commands", () => {
  const commands = readmeCommands(DOCUMENTATION)

  test('every command in the documentation is run here or by the file named for it, and every entry is still in it', () => {
    const known = new Set([...RUN_HERE, ...Object.keys(ELSEWHERE)])
    expect(commands.filter(c => !known.has(c))).toEqual([])
    expect([...known].filter(c => !commands.includes(c))).toEqual([])
  })

  test('the commands run elsewhere are there, as written', () => {
    for (const [command, where] of Object.entries(ELSEWHERE)) {
      // Compared without whitespace: the formatter lays code out as it likes, the command's words stay
      expect(withoutSpace(readFileSync(join(ROOT, where.file), 'utf8')), `${command} in ${where.file}`).toContain(withoutSpace(where.text))
    }
  })

  test('no command in the documentation needs a global bun (Bun lives in node_modules)', () => {
    const inline = [...DOCUMENTATION.matchAll(/`([^`\n]+)`/g)].map(m => m[1]!)
    expect([...commands, ...inline].filter(c => /^bunx? /.test(c))).toEqual([])
  })
})

/**
 * A scratch checkout: the project's files linked into an empty directory, so `./data`,
 * `./owner-password.txt` and `~` (HOME) are the test's own. SOLOPOD_PORT keeps the documentation's
 * commands off port 3000 without changing their text (flags win over env; none of them sets --port).
 */
describe("the documentation's commands, run as written in a scratch checkout", () => {
  let dir: string
  let port: number
  let env: Record<string, string>
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'solopod-readme-'))
    for (const name of ['package.json', 'src', 'static', 'node_modules', 'tsconfig.json', 'bunfig.toml']) symlinkSync(join(ROOT, name), join(dir, name))
    mkdirSync(join(dir, 'home'))
    port = await freePort()
    env = { ...(process.env as Record<string, string>), HOME: join(dir, 'home'), SOLOPOD_PORT: String(port), npm_config_update_notifier: 'false' }
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  async function run(command: string) {
    const proc = Bun.spawn(['sh', '-c', command], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
    return { code: await proc.exited, stdout, stderr }
  }

  /** A long-running command in its own process group (npm starts bun as a child): stopped as a group. */
  async function start(command: string) {
    const proc: Subprocess = Bun.spawn(['setsid', 'sh', '-c', command], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' })
    let stderr = ''
    void (async () => {
      const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
      for (let c = await reader.read(); !c.done; c = await reader.read()) stderr += new TextDecoder().decode(c.value)
    })()
    void new Response(proc.stdout as ReadableStream<Uint8Array>).text()
    const deadline = Date.now() + 30_000
    while (!stderr.includes('New link')) {
      if (proc.exitCode !== null || Date.now() > deadline) {
        if (proc.exitCode === null) {
          process.kill(-proc.pid, 'SIGTERM')
          await proc.exited
        }
        throw new Error(`${command} did not start: ${stderr}`)
      }
      await Bun.sleep(50)
    }
    return {
      banner: () => stderr,
      stop: async () => {
        process.kill(-proc.pid, 'SIGTERM')
        await proc.exited
      },
    }
  }

  test('npm start: the first start prints the banner with the setup link; / in a browser is the front page', async () => {
    const server = await start(RUN_HERE[0]!.replace('npm install && ', ''))
    try {
      expect(server.banner()).toContain(`URL       http://localhost:${port}/`)
      expect(server.banner()).toMatch(/\/\.admin\/setup\?token=[\w-]{43}/)
      expect(existsSync(join(dir, 'data', 'db'))).toBe(true)
      const res = await fetch(`http://localhost:${port}/`, { headers: { accept: 'text/html' } })
      expect(res.status).toBe(401)
      expect(await res.text()).toContain('No password is set yet')

      const link = await run(RUN_HERE[1]!)
      expect(link.code).toBe(0)
      const [url] = link.stdout.match(/http:\/\/localhost:\d+\/\.admin\/setup\?token=[\w-]{43}/) ?? []
      expect(url).toStartWith(`http://localhost:${port}/`)
      expect((await fetch(url!)).status).toBe(200)
    } finally {
      await server.stop()
    }
  }, 60_000)

  test('npm start -- --owner-password-file sets the password; the banner then offers sign-in', async () => {
    writeFileSync(join(dir, 'owner-password.txt'), 'a password from a file\n')
    const server = await start(RUN_HERE[2]!)
    try {
      expect(server.banner()).not.toContain('token=')
      expect(server.banner()).toContain(`Sign in   http://localhost:${port}/.oidc/login`)
    } finally {
      await server.stop()
    }
  }, 60_000)

  test('passwd, --help and --version', async () => {
    const passwd = await run(RUN_HERE[3]!)
    expect(passwd.code).toBe(0)
    expect(passwd.stdout).toContain("the owner's password was changed")
    const help = await run(RUN_HERE[4]!)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('setup-link')
    const version = await run(RUN_HERE[5]!)
    expect(version.code).toBe(0)
    expect(version.stdout).toContain(`solopod ${pkg.version}`)
  }, 60_000)

  test('export to ~/backups and import into a new data directory at a new base URL', async () => {
    const exported = await run(RUN_HERE[6]!)
    expect(exported.code).toBe(0)
    expect(existsSync(join(dir, 'home', 'backups', 'pod-2026-11-23'))).toBe(true)
    const imported = await run(RUN_HERE[7]!)
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain('for https://pod.example')
    expect(existsSync(join(dir, 'new-data', 'db'))).toBe(true)
  }, 60_000)

  test('import of a backup archive as the dashboard downloads it (the export folder, tar.gz)', async () => {
    mkdirSync(join(dir, 'home', 'Downloads'))
    expect((await run('tar -czf ~/Downloads/solopod-backup-20261123T120000Z.tar.gz -C ~/backups pod-2026-11-23')).code).toBe(0)
    rmSync(join(dir, 'new-data'), { recursive: true })
    const imported = await run(RUN_HERE[11]!)
    expect(imported.stderr).not.toContain('solopod:')
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain('for https://pod.example')
    expect(existsSync(join(dir, 'new-data', 'db'))).toBe(true)
    expect(readdirSync(join(dir, 'home', 'Downloads'))).toEqual(['solopod-backup-20261123T120000Z.tar.gz'])
    expect(readdirSync(dir).filter(n => n.startsWith('.solopod-import-'))).toEqual([])
  }, 60_000)

  test('keys add: a key document in the pod and the private JWK in a 0600 file', async () => {
    const added = await run(RUN_HERE[10]!)
    expect(added.code).toBe(0)
    expect(added.stdout).toContain('/keys/laptop#key')
    expect(statSync(join(dir, 'data', 'private-keys', 'laptop.jwk')).mode & 0o777).toBe(0o600)
  }, 60_000)

  /**
   * Port 3443 is fixed in the documented command: it runs in a network namespace of its own (its own
   * loopback, so the port is always free), with SOLOPOD_DATA pointing to a new data directory (./data
   * belongs to http://localhost:PORT). curl asks for discovery over https inside the namespace.
   */
  test.skipIf(!canIsolateNetwork)(
    'a self-signed certificate with openssl, then npm start with TLS on https://localhost:3443',
    async () => {
      const cert = await run(RUN_HERE[8]!)
      expect(cert.code).toBe(0)
      expect(existsSync(join(dir, 'cert.pem')) && existsSync(join(dir, 'key.pem'))).toBe(true)
      const script = `ip link set lo up
setsid sh -c "$1" > tls-out.txt 2> tls-err.txt &
pid=$!
for i in $(seq 1 300); do grep -q 'New link' tls-err.txt && break; sleep 0.1; done
curl -sk https://localhost:3443/.well-known/openid-configuration
kill -TERM -$pid; wait $pid`
      const proc = Bun.spawn(['unshare', '-rn', 'sh', '-c', script, 'sh', RUN_HERE[9]!], {
        cwd: dir,
        env: { ...env, SOLOPOD_DATA: './tls-data' },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const out = await new Response(proc.stdout).text()
      await proc.exited
      expect(readFileSync(join(dir, 'tls-err.txt'), 'utf8')).toContain('solopod: serving https://localhost:3443 on 127.0.0.1:3443')
      expect(JSON.parse(out).issuer).toBe('https://localhost:3443')
    },
    60_000,
  )
})
