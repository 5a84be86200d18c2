// Export/import round trips through the store API: nothing lost, IRIs moved, damaged or mismatched exports refused.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Quad } from '@rdfjs/types'
import jsonld from 'jsonld'
import { Parser, Writer } from 'n3'
import { FORMAT_VERSION, openStore, type Store } from '../../src/store/open-store.ts'
import type { ResourceMeta } from '../../src/store/resource-meta.ts'
import { readTriples, writeResource } from '../../src/store/resources.ts'
import { binaryContent, storedBytes } from './binary-content.ts'
import { putRecord } from '../../src/store/records.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { getRecordedBaseUrl } from '../../src/store/base-url.ts'
import { getOwnerAccount, setOwnerPassword, verifyOwnerPassword } from '../../src/account/owner-account.ts'
import { parseRdf } from '../../src/rdf/parse-rdf.ts'
import { exportPod, ExportError, type Manifest } from '../../src/store/export-pod.ts'
import { importPod, ImportError, rebaser } from '../../src/store/import-pod.ts'
import { parseRdfDocument } from '../../src/rdf/parse-rdf.ts'
import { readGraphStatements } from '../../src/rdf/graph-statements.ts'
import { rdfContent } from '../../src/resources/new-content.ts'

const OLD = 'http://localhost:3000'
const NEW = 'https://pod.example.org'
const T0 = 1_700_000_000_000
const root = mkdtempSync(join(tmpdir(), 'solopod-export-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let dirs = 0
const tempDir = (name: string) => join(root, `${name}-${++dirs}`)

const random = (n: number) => {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)))
  return out
}

const DOCS: Record<string, string> = {
  '/notes/': '<> <http://purl.org/dc/terms/title> "Notes"@en.',
  '/notes/2024/a': `@prefix foaf: <http://xmlns.com/foaf/0.1/>. @prefix xsd: <http://www.w3.org/2001/XMLSchema#>.
<#it> foaf:name "Ålice \\"q\\"\\n"@en-GB, "Alicia"@es; foaf:age "42"^^xsd:integer; foaf:height "1.7"^^xsd:decimal;
  foaf:knows [ foaf:name "Bob"; foaf:knows [ foaf:name "Carol" ] ], <http://localhost:30001/not-ours#me>;
  foaf:nick ( "a" "b" [ foaf:name "c" ] ); <http://example.org/when> "2024-01-01"^^<http://localhost:3000/types#date>.`,
  '/notes/2024/deep/er/b': '<#x> <http://example.org/p> [ <http://example.org/q> [] ], "plain".',
  '/notes/.acl': `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
  '/notes/2024/a.acl': `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent </profile/card#me>; acl:accessTo <a>; acl:mode acl:Read, acl:Write, acl:Control.`,
}
const BINARIES: Record<string, { type: string; bytes: Uint8Array }> = {
  '/files/big.bin': { type: 'application/octet-stream', bytes: random(2 * 1024 * 1024 + 13) },
  '/files/photo.jpg': { type: 'image/jpeg', bytes: random(4097) },
  '/files/empty.txt': { type: 'text/plain', bytes: new Uint8Array() },
  '/notes/2024/deep/same.bin': { type: 'application/octet-stream', bytes: random(300) },
}

/** A pod with nested containers, RDF documents, ACLs, binaries, a password and OP records. */
async function buildPod(dataDir: string): Promise<void> {
  const store = await openStore(dataDir)
  try {
    await ensureOwner(store, OLD, T0)
    await setOwnerPassword(store, 'correct horse battery staple')
    let t = T0
    for (const [path, ttl] of Object.entries(DOCS)) {
      const triples = await parseRdf(ttl, 'text/turtle', OLD + path)
      await writeResource(store, OLD, path, { kind: path.endsWith('/') ? 'container' : 'rdf', contentType: 'text/turtle', triples, size: triples.length }, ++t)
    }
    for (const [path, { type, bytes }] of Object.entries(BINARIES)) {
      await writeResource(store, OLD, path, await binaryContent(store, type, bytes), ++t)
    }
    await putRecord(store, 'client', 'abc', { client_id: 'abc', redirect_uris: [`${OLD}/app/cb`, 'http://localhost:30001/cb'] })
    await putRecord(store, 'signing-key', 'k1', { kid: 'k1', d: 'secret' }, Date.now() + 3_600_000)
    await putRecord(store, 'auth-code', 'gone', { webid: `${OLD}/profile/card#me` }, Date.now() - 1)
  } finally {
    await store.close()
  }
}

async function canonical(quads: readonly Quad[]): Promise<string> {
  const nquads = new Writer({ format: 'N-Quads' }).quadsToString(quads as Quad[])
  return jsonld.canonize(nquads, { algorithm: 'RDFC-1.0', inputFormat: 'application/n-quads', format: 'application/n-quads' })
}

async function entries<V>(sub: { iterator(): AsyncIterable<[string, V]> }): Promise<[string, V][]> {
  const out: [string, V][] = []
  for await (const e of sub.iterator()) out.push(e)
  return out
}

async function withStore<T>(dataDir: string, fn: (s: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dataDir)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

async function exported(): Promise<{ dataDir: string; dest: string }> {
  const dataDir = tempDir('src')
  await buildPod(dataDir)
  const dest = tempDir('export')
  await withStore(dataDir, s => exportPod(s, dest))
  return { dataDir, dest }
}

/** Everything an import must reproduce, with IRIs of the source mapped to the target base. */
async function compareStores(srcDir: string, dstDir: string, from: string, to: string) {
  const rebase = rebaser(from, to)
  const src = await openStore(srcDir)
  const dst = await openStore(dstDir)
  try {
    // A blob id names a file of one data directory: the import stores each file anew, under its own id.
    const withoutBlobIds = (all: [string, ResourceMeta][]) => all.map(([k, { blob: _blob, ...m }]) => [k, m])
    const metas = await entries(src.meta)
    expect(withoutBlobIds(await entries(dst.meta))).toEqual(withoutBlobIds(metas))
    const [srcRefs, dstRefs] = [await entries(src.blobRefs), await entries(dst.blobRefs)]
    expect(dstRefs.map(([, path]) => path).sort()).toEqual(srcRefs.map(([, path]) => path).sort())
    // owner's 6 documents (with /keys/ and its ACL) + /profile/, /settings/ with its ACL, the preferences file and
    // the two type indexes (one with an ACL), ours, and the intermediate containers PUT created
    expect(metas.length).toBe(7 + 6 + Object.keys(DOCS).length + Object.keys(BINARIES).length + 4)
    expect(await entries(dst.contains)).toEqual(await entries(src.contains))
    for (const [path, meta] of metas) {
      if (meta.kind === 'binary') {
        const body = await storedBytes(dst, path)
        expect(body).toBeDefined()
        expect(Buffer.from(body!).equals(Buffer.from((await storedBytes(src, path))!))).toBe(true)
        continue
      }
      const before = (await readTriples(src, from, path)).map(q => rebaseQuad(q, rebase))
      const after = await readTriples(dst, to, path)
      expect(after.length).toBe(before.length)
      expect(await canonical(after)).toBe(await canonical(before))
    }
    expect(await getRecordedBaseUrl(dst)).toBe(to)
  } finally {
    await src.close()
    await dst.close()
  }
}

function rebaseQuad(q: Quad, rebase: (iri: string) => string): Quad {
  const nq = new Writer({ format: 'N-Quads' }).quadsToString([q])
  const rewritten = nq.replace(/<([^>]*)>/g, (_, iri: string) => `<${rebase(iri)}>`)
  return new Parser({ format: 'N-Quads', blankNodePrefix: '_:' }).parse(rewritten)[0] as Quad
}

describe('export', () => {
  test('writes manifest, N-Quads, one file per binary with its SHA-256, and state without expired records', async () => {
    const { dest } = await exported()
    const manifest = JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')) as Manifest
    expect(manifest.kind).toBe('solopod-export')
    expect(manifest.formatVersion).toBe(FORMAT_VERSION)
    expect(manifest.baseUrl).toBe(OLD)
    expect(manifest.counts.binaries).toBe(Object.keys(BINARIES).length)
    expect(manifest.counts.resources).toBe(manifest.resources.length)
    for (const [path, { bytes, type }] of Object.entries(BINARIES)) {
      const entry = manifest.resources.find(r => r.path === path)!
      expect(entry.contentType).toBe(type)
      const file = new Uint8Array(readFileSync(join(dest, 'blobs', entry.file!)))
      expect(Buffer.from(file).equals(Buffer.from(bytes))).toBe(true)
      expect(entry.sha256).toBe(new Bun.CryptoHasher('sha256').update(bytes).digest('hex'))
    }
    expect(readFileSync(join(dest, 'pod.nq'), 'utf8').split('\n').filter(Boolean).length).toBe(manifest.counts.quads)
    const state = readFileSync(join(dest, 'state.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as { space: string; key: string })
    expect(state.length).toBe(manifest.counts.state)
    expect(state.some(l => l.space === 'system' && l.key === 'owner')).toBe(true)
    expect(state.some(l => l.key === 'client\0abc')).toBe(true)
    expect(state.some(l => l.key.startsWith('auth-code'))).toBe(false)
  })

  test('refuses a destination that is not empty', async () => {
    const dataDir = tempDir('src')
    await buildPod(dataDir)
    const dest = tempDir('full')
    mkdirSync(dest)
    writeFileSync(join(dest, 'keep.txt'), 'mine')
    const err = await withStore(dataDir, s => exportPod(s, dest)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ExportError)
    expect((err as Error).message).toContain('is not an empty directory')
    expect(readdirSync(dest)).toEqual(['keep.txt'])
  })
})

describe('import', () => {
  test('round trip at the same base URL loses nothing', async () => {
    const { dataDir, dest } = await exported()
    const target = tempDir('dst')
    await importPod(target, dest, OLD)
    await compareStores(dataDir, target, OLD, OLD)
    await withStore(target, async s => {
      expect(await verifyOwnerPassword(s, 'correct horse battery staple')).toBe(true)
      expect(await ensureOwner(s, OLD, T0)).toBe(false)
      expect([...(await entries(s.records)).map(([k]) => k)].sort()).toEqual(['client\0abc', 'signing-key\0k1'])
    })
  })

  test('a new base URL moves every IRI on the old origin, WebID and issuer included', async () => {
    const { dataDir, dest } = await exported()
    const target = tempDir('moved')
    await importPod(target, dest, NEW)
    await compareStores(dataDir, target, OLD, NEW)
    await withStore(target, async s => {
      expect<string | undefined>((await getOwnerAccount(s))?.webid).toBe(`${NEW}/profile/card#me`)
      const card = new Writer({ format: 'N-Triples' }).quadsToString(await readTriples(s, NEW, '/profile/card'))
      expect(card).toContain(`<${NEW}/profile/card#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${NEW}>`)
      expect(card).not.toContain(OLD)
      const doc = new Writer({ format: 'N-Triples' }).quadsToString(await readTriples(s, NEW, '/notes/2024/a'))
      expect(doc).toContain('<http://localhost:30001/not-ours#me>')
      expect(doc).toContain(`^^<${NEW}/types#date>`)
      const client = (await s.records.get('client\0abc'))!.v as { redirect_uris: string[] }
      expect(client.redirect_uris).toEqual([`${NEW}/app/cb`, 'http://localhost:30001/cb'])
      expect(await ensureOwner(s, NEW, T0)).toBe(false)
    })
  })

  test('refuses a data directory that is not empty', async () => {
    const { dest } = await exported()
    const target = tempDir('busy')
    mkdirSync(target)
    writeFileSync(join(target, 'x'), '')
    const err = await importPod(target, dest, OLD).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as Error).message).toContain('is not empty')
    expect(readdirSync(target)).toEqual(['x'])
  })

  test('refuses an export of another data format version', async () => {
    const { dest } = await exported()
    const file = join(dest, 'manifest.json')
    writeFileSync(file, readFileSync(file, 'utf8').replace(`"formatVersion":${FORMAT_VERSION}`, '"formatVersion":99'))
    const target = tempDir('dst')
    const err = await importPod(target, dest, OLD).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as Error).message).toContain(`exported from data format 99; this solopod understands format ${FORMAT_VERSION}`)
    expect(existsSync(target)).toBe(false)
  })

  test('refuses a binary whose bytes do not match the manifest and leaves nothing behind', async () => {
    const { dest } = await exported()
    const manifest = JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')) as Manifest
    const entry = manifest.resources.find(r => r.path === '/files/photo.jpg')!
    const blob = join(dest, 'blobs', entry.file!)
    const bytes = readFileSync(blob)
    bytes[100] = bytes[100]! ^ 1
    writeFileSync(blob, bytes)
    const target = tempDir('dst')
    const err = await importPod(target, dest, OLD).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as Error).message).toContain('binary /files/photo.jpg')
    expect((err as Error).message).toContain('does not match its SHA-256')
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(root).some(n => n.includes('.import-'))).toBe(false)
  })

  test('refuses a truncated N-Quads file', async () => {
    const { dest } = await exported()
    const file = join(dest, 'pod.nq')
    const lines = readFileSync(file, 'utf8').split('\n')
    writeFileSync(file, lines.slice(0, 5).join('\n') + '\n')
    const err = await importPod(tempDir('dst'), dest, OLD).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ImportError)
    expect((err as Error).message).toMatch(/pod.nq holds 5 quads, the manifest says \d+/)
  })
})

describe('a document with named graphs of its own', () => {
  test('is exported and imported whole: its graphs, their names moved to the new base, and its flag', async () => {
    const dataDir = tempDir('graphs')
    const path = '/notes/claims'
    await withStore(dataDir, async s => {
      await ensureOwner(s, OLD, T0)
      const doc = await parseRdfDocument(
        '<#top> <http://e/p> "d". <#g> { <#me> <http://e/name> "Alice"; <http://e/knows> [ <http://e/name> "Bob" ] }',
        'application/trig',
        OLD + path,
        { namedGraphs: true },
      )
      await writeResource(s, OLD, path, await rdfContent('rdf', doc.triples, OLD + path, {}, doc.namedGraphs), T0)
    })
    const dest = tempDir('graphs-export')
    await withStore(dataDir, s => exportPod(s, dest))
    const target = tempDir('graphs-moved')
    await importPod(target, dest, NEW)
    await withStore(target, async s => {
      expect((await s.meta.get(path))?.namedGraphs).toBe(true)
      const { triples, namedGraphs } = readGraphStatements(await readTriples(s, NEW, path))
      expect(triples.map(q => `${q.subject.value} ${q.object.value}`)).toEqual([`${NEW}${path}#top d`])
      expect(namedGraphs.map(q => q.graph.value)).toEqual([`${NEW}${path}#g`, `${NEW}${path}#g`, `${NEW}${path}#g`])
      const bob = namedGraphs.find(q => q.object.value === 'Bob')!
      expect(namedGraphs.some(q => q.predicate.value === 'http://e/knows' && q.object.equals(bob.subject))).toBe(true)
    })
  })
})
