// `npm run build`: the executable runs from an empty directory with no node_modules in reach.

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildExecutable } from '../../src/build-executable.ts'
import { hostTarget } from '../../src/build-leveldb-addon.ts'
import pkg from '../../package.json' with { type: 'json' }
import { freePort, OWNER_PASSWORD } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'

const ROOT = resolve(import.meta.dir, '..', '..')
const NODE_MODULES = join(ROOT, 'node_modules')
const skip = process.env.BUILD_TEST === '0'
const work = mkdtempSync(join(tmpdir(), 'solopod-build-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * A compiled binary remembers the absolute node_modules path it was built from, so on the build
 * machine it could load classic-level's addon from there and hide a broken build. Where user
 * namespaces are available, the binary runs with node_modules masked by an empty tmpfs.
 */
const canMask = Bun.spawnSync(['unshare', '-rm', 'true'], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0
const withoutNodeModules = (cmd: string[]) =>
  canMask ? ['unshare', '-rm', 'sh', '-c', `mount -t tmpfs none '${NODE_MODULES}' && exec "$@"`, 'sh', ...cmd] : cmd

async function runToEnd(cmd: string[], cwd: string) {
  const proc = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' })
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, out, err }
}

describe('npm run build', () => {
  test.skipIf(skip)(
    'dist/solopod serves the pod from an empty directory without node_modules',
    async () => {
      // The documentation's command (docs/development.md), as written (npm puts node_modules/.bin, and so Bun, on the PATH).
      const build = await runToEnd(['npm', 'run', 'build'], ROOT)
      expect(build.code).toBe(0)
      expect(build.out).toMatch(/^built .*dist\/solopod \(\d+\.\d MB\)/m)
      const dir = join(work, 'run')
      mkdirSync(dir)
      const binary = join(dir, 'solopod')
      copyFileSync(join(ROOT, 'dist', 'solopod'), binary)
      expect(statSync(binary).mode & 0o111).not.toBe(0)
      const version = await runToEnd(withoutNodeModules([binary, '--version']), dir)
      expect(version.out).toBe(`solopod ${pkg.version}\n`)
      writeFileSync(join(dir, 'pw'), OWNER_PASSWORD)
      const port = await freePort()
      const base = `http://localhost:${port}`
      await seedPublicContainer(join(dir, 'data'), base, '/pub/', ['Read', 'Append', 'Write'])
      chmodSync(join(dir, 'data'), 0o700)
      const proc = Bun.spawn(
        withoutNodeModules([
          binary,
          '--port',
          String(port),
          '--base-url',
          base,
          '--data',
          join(dir, 'data'),
          '--owner-password-file',
          join(dir, 'pw'),
          '--log-level',
          'warn',
        ]),
        { cwd: dir, stdout: 'pipe', stderr: 'pipe' },
      )
      try {
        let up = false
        for (let i = 0; i < 200 && !up && proc.exitCode === null; i++) {
          up = await fetch(`http://127.0.0.1:${port}/profile/card`).then(
            () => true,
            () => false,
          )
          if (!up) await Bun.sleep(50)
        }
        if (!up) throw new Error(`binary did not start: ${await new Response(proc.stderr).text()}`)

        const card = await fetch(`http://127.0.0.1:${port}/profile/card`, { headers: { accept: 'text/turtle' } })
        expect(card.status).toBe(200)
        expect(card.headers.get('content-type')).toStartWith('text/turtle')
        expect(await card.text()).toContain(`solid:oidcIssuer <${base}>`)

        // The login page is static/layout.html + static/login.html: embedded files, read through readStatic.
        const login = await fetch(`http://127.0.0.1:${port}/.oidc/login`)
        expect(login.status).toBe(200)
        expect(login.headers.get('content-type')).toStartWith('text/html')
        expect(await login.text()).toMatch(/^<!doctype html>[\s\S]*<form/i)

        // PATCH bodies are parsed on a worker thread, which the binary must hold too
        const patch = await fetch(`http://127.0.0.1:${port}/pub/doc`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/sparql-update' },
          body: 'INSERT DATA { <#a> <#b> "c" . }',
        })
        expect(patch.status).toBe(201)
        // The dashboard's script: bundled from static/admin/app.ts at build time and embedded
        const script = await fetch(`http://127.0.0.1:${port}/.admin/app.js`)
        expect(script.status).toBe(200)
        expect(await script.text()).toContain('x-csrf-token')
        // A role loaded with its first request (src/app.ts LAZY_ROLES): its chunk is in the executable
        const uma = await fetch(`http://127.0.0.1:${port}/.well-known/uma2-configuration`)
        expect(uma.status).toBe(200)
        expect((await uma.json()).token_endpoint).toBe(`${base}/.uma/token`)

        const rootRes = await fetch(`http://127.0.0.1:${port}/`)
        expect(rootRes.status).toBe(401)
        expect(rootRes.headers.get('link')).toContain('<http://www.w3.org/ns/pim/space#Storage>; rel="type"')

        // What loads on first use sits in chunks of its own in the executable (src/build-executable.ts): JSON-LD,
        // a WebDAV XML body, an export asked of the running server (its control socket)
        const jsonLd = await fetch(`http://127.0.0.1:${port}/profile/card`, { headers: { accept: 'application/ld+json' } })
        expect(jsonLd.status).toBe(200)
        expect(JSON.stringify(await jsonLd.json())).toContain(`${base}/profile/card#me`)
        const propfind = await fetch(`http://127.0.0.1:${port}/pub/`, {
          method: 'PROPFIND',
          headers: { depth: '0', 'content-type': 'application/xml' },
          body: '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><resourcetype/></prop></propfind>',
        })
        expect(propfind.status).toBe(207)
        expect(await propfind.text()).toContain('collection')
        const exported = await runToEnd(withoutNodeModules([binary, 'export', join(dir, 'export'), '--data', join(dir, 'data')]), dir)
        expect(exported.out).toContain('exported the running pod')
        expect(readdirSync(join(dir, 'export')).length).toBeGreaterThan(0)
      } finally {
        proc.kill('SIGTERM')
        expect(await proc.exited).toBe(0)
      }
    },
    120_000,
  )

  test.skipIf(skip)(
    "the executable bundles the packages themselves, not the checkout's bundles of them",
    async () => {
      const outfile = join(work, 'package-probe', 'probe')
      const staticDir = join(work, 'package-probe', 'static')
      mkdirSync(staticDir, { recursive: true })
      const { inputs } = await buildExecutable({
        entry: join(import.meta.dir, 'fixtures', 'package-probe.ts'),
        outfile,
        staticDir,
        target: hostTarget(),
        bytecode: false,
      })
      expect(inputs.filter(input => input.includes('.solopod-deps'))).toEqual([])
      expect(inputs.some(input => input.includes('node_modules/structured-headers/'))).toBe(true)
      const run = await runToEnd(withoutNodeModules([outfile]), tmpdir())
      expect(run.out).toBe('probe=1\n')
    },
    120_000,
  )

  test.skipIf(skip)(
    'readStatic answers from the files embedded in the executable, and nothing else',
    async () => {
      const staticDir = join(work, 'probe', 'static')
      mkdirSync(join(staticDir, 'admin'), { recursive: true })
      writeFileSync(join(staticDir, 'login.html'), '<!doctype html><title>Log in</title>')
      writeFileSync(join(staticDir, 'admin', 'app.js'), 'console.log("ü")\n')
      const outfile = join(work, 'probe', 'static-probe')
      await buildExecutable({ entry: join(import.meta.dir, 'fixtures', 'static-probe.ts'), outfile, staticDir, target: hostTarget() })
      rmSync(staticDir, { recursive: true })
      const names = ['login.html', 'admin/app.js', 'missing.html', '../static/login.html', 'admin/../login.html', '/etc/passwd']
      const run = await runToEnd([outfile, ...names], tmpdir())
      expect(run.err).toBe('')
      expect(
        run.out
          .trim()
          .split('\n')
          .map(l => JSON.parse(l) as unknown),
      ).toEqual([
        { name: 'login.html', text: '<!doctype html><title>Log in</title>' },
        { name: 'admin/app.js', text: 'console.log("ü")\n' },
        { name: 'missing.html', status: 404 },
        { name: '../static/login.html', status: 404 },
        { name: 'admin/../login.html', status: 404 },
        { name: '/etc/passwd', status: 404 },
      ])
    },
    120_000,
  )
})
