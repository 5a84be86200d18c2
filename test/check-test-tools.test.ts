// The README's test commands: `npm test` stops at once, in one line, when a tool the suite needs is
// missing (test/check-test-tools.mjs, its `pretest`); `npm run test:unit` runs no test that needs one.

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { Glob } from 'bun'
import pkg from '../package.json' with { type: 'json' }

const ROOT = join(import.meta.dir, '..')
const CHECK = join(import.meta.dir, 'check-test-tools.mjs')
const DAV_CLIENTS = ['usr/bin/litmus', 'usr/bin/rclone', 'usr/bin/cadaver']
const roots = mkdtempSync(join(tmpdir(), 'solopod-tools-'))
afterAll(() => rmSync(roots, { recursive: true, force: true }))

/** A directory standing in for `/` that holds only `tools` (as executables). */
function machineWith(...tools: string[]): string {
  const root = mkdtempSync(join(roots, 'root-'))
  for (const tool of tools) {
    const file = join(root, tool)
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, '#!/bin/sh\n')
    chmodSync(file, 0o755)
  }
  return root
}

function check(root: string) {
  const run = Bun.spawnSync([process.execPath, CHECK], { env: { ...process.env, SOLOPOD_TOOLS_ROOT: root }, stdout: 'pipe', stderr: 'pipe' })
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() }
}

describe('npm test: the tools the whole suite needs are checked first', () => {
  test('package.json runs the check before the suite', () => {
    // then the libraries' bundles (src/build-deps.ts), which the pods under test load, and the build step of the
    // dashboard's script (src/build-ui.ts), which they serve
    expect(pkg.scripts.pretest).toBe('node test/check-test-tools.mjs && bun src/build-deps.ts && bun src/build-ui.ts')
  })

  test('a machine without nginx stops with one line naming it and the command that installs it', () => {
    const { code, stdout, stderr } = check(
      machineWith('usr/bin/chromium', 'usr/bin/openssl', 'usr/bin/ffmpeg', 'usr/bin/pebble', 'usr/bin/pebble-challtestsrv', ...DAV_CLIENTS),
    )
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toContain('nginx (/usr/sbin/nginx)')
    expect(stderr).toMatch(/apt-get install -y nginx`/)
    expect(stderr).not.toContain('chromium')
  })

  test('a machine with none of them names all eight in the one line', () => {
    const { code, stderr } = check(machineWith())
    expect(code).toBe(1)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/apt-get install -y chromium nginx openssl ffmpeg pebble litmus rclone cadaver`/)
  })

  test('pebble without its DNS server (pebble-challtestsrv, the same package) counts as missing', () => {
    const { code, stderr } = check(machineWith('usr/bin/chromium', 'usr/sbin/nginx', 'usr/bin/openssl', 'usr/bin/ffmpeg', 'usr/bin/pebble', ...DAV_CLIENTS))
    expect(code).toBe(1)
    expect(stderr).toMatch(/apt-get install -y pebble`/)
  })

  test('a machine without cadaver stops naming only it', () => {
    const { code, stderr } = check(
      machineWith(
        'usr/bin/chromium',
        'usr/sbin/nginx',
        'usr/bin/openssl',
        'usr/bin/ffmpeg',
        'usr/bin/pebble',
        'usr/bin/pebble-challtestsrv',
        'usr/bin/litmus',
        'usr/bin/rclone',
      ),
    )
    expect(code).toBe(1)
    expect(stderr).toMatch(/apt-get install -y cadaver`/)
  })

  test('a machine with all eight passes silently', () => {
    expect(
      check(
        machineWith('usr/bin/chromium', 'usr/sbin/nginx', 'usr/bin/openssl', 'usr/bin/ffmpeg', 'usr/bin/pebble', 'usr/bin/pebble-challtestsrv', ...DAV_CLIENTS),
      ),
    ).toEqual({ code: 0, stdout: '', stderr: '' })
  })
})

describe('npm run test:unit', () => {
  const script = pkg.scripts['test:unit']
  const ignored = [...script.matchAll(/--path-ignore-patterns='?([^'\s]+)'?/g)].map(m => m[1]!)
  const isIgnored = (file: string) => ignored.some(p => new Glob(p).match(file))
  const listTests = (dir: string): string[] =>
    readdirSync(dir).flatMap(name => {
      const p = join(dir, name)
      if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : listTests(p)
      return name.endsWith('.test.ts') ? [relative(ROOT, p)] : []
    })
  const selected = listTests(join(ROOT, 'test')).filter(f => !isIgnored(f))

  test('leaves out the browser tests, the whole-server tests, the documentation commands and the slow files', () => {
    expect(ignored).toEqual(['test/e2e/**', 'test/browser/**', 'test/s3/**', 'test/readme-commands.test.ts', '**/*.slow.test.ts'])
    expect(selected.length).toBeGreaterThan(50)
  })

  // A test of a second or more (measured on the 2-core CI machine) lives in a `*.slow.test.ts` file next to
  // its topic: `npm test` runs it, the unit tier does not, so the unit tier stays the loop of under a minute.
  // A file newly slow is renamed (or its slow test moved into a sibling `.slow.test.ts`) and named here.
  test('the slow files, by name, are in the full suite only', () => {
    const slow = listTests(join(ROOT, 'test'))
      .filter(f => f.endsWith('.slow.test.ts'))
      .sort()
    expect(slow).toEqual([
      'test/admin/upload-memory.slow.test.ts', // a 256 MiB upload through the form
      'test/channels/webhook-delivery.slow.test.ts', // retry times and a backlog of 1000 notifications
      'test/e2e/folder-zip-memory.slow.test.ts', // a 1 GiB folder zipped, RSS sampled
      'test/e2e/versions-1gb.slow.test.ts', // 1 GB deleted by an app and restored in one step
      'test/e2e/webdav-large.slow.test.ts', // 1 GB through cadaver, RSS sampled
      'test/lib/replay-heap.slow.test.ts', // three processes of their own, each filling a memory and collecting
      'test/op/login-rate-limit.slow.test.ts', // hundreds of wrong passwords
      'test/rs/large-rdf-bodies.slow.test.ts', // megabytes of Turtle parsed on the worker
      'test/rs/patch-off-event-loop.slow.test.ts', // a 1 MiB PATCH parsed on the worker
      'test/s3/backup-stream.slow.test.ts', // a 200 MiB file in Ceph RGW through a backup and an import, RSS and disk sampled
      'test/s3/blobs-move.slow.test.ts', // 1,000 files moved to Ceph RGW and back while the pod serves, a move killed and resumed
      'test/s3/upload-2gb.slow.test.ts', // 2 GiB up to Ceph RGW through the pod and back, RSS sampled
      'test/store/bounded-memory.slow.test.ts', // 12,000 rewrites and a compaction, RSS in a child process
      'test/store/export-import.slow.test.ts', // whole pods exported and imported
      'test/store/group-commit.slow.test.ts', // concurrent writers and a compaction
    ])
    expect(slow.filter(f => !isIgnored(f))).toEqual([])
  })

  test('selects no test that starts a browser, a proxy or a pod process', () => {
    // a browser or proxy, a pod's process (by its entry point or by this runtime), a headless Chromium
    const needsMore =
      /browser\/harness\.ts|e2e\/start-server\.ts|playwright-core|nginx|chromium|src', 'main\.ts'|src\/main\.ts|spawn(Sync)?\(\[process\.execPath/
    const self = relative(ROOT, import.meta.path) // names them to look for them
    expect(selected.filter(f => f !== self && needsMore.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([])
  })
})
