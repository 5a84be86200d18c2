// Issue 41 "Restart ≤ 150 ms": what a start loads is what a first request needs. The libraries of one feature
// (an archive, a SPARQL Update, a WebDAV body, an upload form, a zip, Markdown, EXIF) load with its first use
// (docs/performance.md); a start that loads one again is a regression of start-up time, caught here by name.

import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEPS_DIR, PREBUNDLED, buildDeps, bundlesAreCurrent, packageOf } from '../../src/build-deps.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const PRELOAD = join(import.meta.dir, '..', 'fixtures', 'loaded-modules.ts')
const SERVING = /solopod: serving (\S+) on \S+:(\d+)/

/**
 * The packages loaded on first use only: none of them is in a started pod that answered its first request.
 * readable-stream comes with n3's stream classes (export and import), which src/rdf/n3-streams.ts keeps apart.
 */
const LOADED_ON_FIRST_USE = [
  'tar',
  'sparqljs',
  '@xmldom/xmldom',
  'busboy',
  'client-zip',
  'marked',
  'exifr',
  'jsonld',
  'acme-client',
  'qrcode',
  'readable-stream',
  // the S3 store's client: a pod on its own disk never loads it (src/store/open-blob-store.ts)
  'aws4fetch',
]

/** The modules a pod had loaded once it served its discovery document, on a new data directory. */
async function modulesAtFirstAnswer(): Promise<string[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'solopod-startup-modules-'))
  const listFile = join(scratch, 'modules.txt')
  try {
    const proc = Bun.spawn([process.execPath, '--preload', PRELOAD, MAIN, 'serve', '--port', '0', '--data', join(scratch, 'data'), '--log-level', 'warn'], {
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...process.env, SOLOPOD_LOADED_MODULES: listFile },
    })
    let printed = ''
    const reader = proc.stderr.getReader()
    while (!SERVING.test(printed)) {
      const chunk = await reader.read()
      if (chunk.done) break
      printed += new TextDecoder().decode(chunk.value)
    }
    reader.releaseLock()
    const [, url] = SERVING.exec(printed) ?? []
    expect(url).toBeDefined()
    const res = await fetch(new URL('/.well-known/openid-configuration', url))
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    return readFileSync(listFile, 'utf8').split('\n')
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

describe('start-up', () => {
  test('a started pod takes the libraries it loads at start from their bundles, not module by module', async () => {
    // `npm test` makes them first (pretest); a test file run alone makes them here
    if (!bundlesAreCurrent(DEPS_DIR)) await buildDeps()
    const modules = await modulesAtFirstAnswer()
    const bundled = Object.keys(PREBUNDLED).map(specifier => packageOf(specifier).name)
    const fromPackages = modules.filter(m => bundled.some(name => m.includes(`/node_modules/${name}/`)))
    expect(fromPackages).toEqual([])
    expect(modules).toContain(join(DEPS_DIR, 'elysia.js'))
    expect(modules).toContain(join(DEPS_DIR, 'quadstore.js'))
  })

  test('a started pod has not loaded the libraries of features no request has used yet', async () => {
    const modules = await modulesAtFirstAnswer()
    // The list is the registry itself: the pod's own entry point is in it.
    expect(modules).toContain(MAIN)
    const packages = new Set(modules.flatMap(m => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m)?.slice(1) ?? []))
    expect(LOADED_ON_FIRST_USE.filter(p => packages.has(p))).toEqual([])
    // n3's index loads all of n3: the pod takes its parts from src/rdf/n3.ts
    expect(modules.filter(m => m.endsWith('/node_modules/n3/lib/index.js'))).toEqual([])
    // The owner's pages and API load with the first request under /.admin (src/app.ts)
    expect(modules.filter(m => m.includes('/src/admin/'))).toEqual([])
    // So do the roles a first request does not need: UMA's token endpoint, the visitor's and share-link pages, the monitor
    expect(modules.filter(m => /\/src\/(as|visit|links|monitor)\/plugin\.ts$/.test(m))).toEqual([])
    // The S3 store is read only for a bucket: this pod keeps its files on its own disk
    expect(modules.filter(m => m.includes('/src/store/s3-'))).toEqual([])
  })
})
