// `solopod import`: restores an export directory into a new data directory, moving the pod to a new base URL if asked.

import type { S3BlobConfig } from '../config.ts'
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { DataFactory } from '../lib/n3.ts'
import { StreamParser } from '../lib/n3-streams.ts'
import type { Quad, Term } from '@rdfjs/types'
import { FORMAT_VERSION, inSublevel, openStore, recordFormatVersion, STORE_LAYOUT_FORMAT, type Store } from './open-store.ts'
import { isAuxiliaryPath, parentPath } from './paths.ts'
import { graphChangeOps, UNREAD_VALUE } from './quad-ops.ts'
import type { ResourceMeta } from './resource-meta.ts'
import type { BlobSource, StoredBlob } from './blob-store.ts'
import { nameIndexEntries } from './name-index.ts'
import { recordBaseUrl } from './base-url.ts'
import {
  BLOBS_DIR,
  DIRECTORY_KEYS,
  EXPORT_KIND,
  MANIFEST_FILE,
  QUADS_FILE,
  STATE_FILE,
  syncDirectory,
  type ExportedResource,
  type Manifest,
  type StateLine,
} from './export-pod.ts'
import { UserError } from '../lib/user-error.ts'

const { namedNode, literal, quad } = DataFactory

export class ImportError extends UserError {
  override name = 'ImportError'
}

/** Quads per synced quadstore batch, and resources per synced LevelDB batch. */
const QUAD_CHUNK = 2000
const BATCH_ENTRIES = 5000

/** Where an import's binaries come from: the export's files, or objects stored already while its archive was read. */
type BlobOf = (store: Store, entry: ExportedResource) => Promise<StoredBlob>

/**
 * Restores `srcDir` into `dataDir` (missing or empty) for a pod served at `baseUrl`. The import
 * is built in a sibling directory and renamed into place at the end, so a failed import (bad
 * checksum, truncated file) leaves no half-filled data directory behind.
 */
export async function importPod(dataDir: string, srcDir: string, baseUrl: string, s3?: S3BlobConfig): Promise<void> {
  dataDir = checkTarget(dataDir)
  const manifest = readManifest(srcDir)
  await importInto(dataDir, baseUrl, s3, async () => ({ srcDir, manifest, blobOf: (store, entry) => restoreBlob(store, srcDir, entry) }))
}

/** unpackExportArchive (export-archive.ts), passed in: that module reads this one's errors. */
export type UnpackArchive = (
  file: string,
  workDir: string,
  storeBlob: (file: string, bytes: AsyncIterable<Uint8Array>) => Promise<void>,
) => Promise<{ holder: string; exportDir: string }>

/**
 * Restores a backup archive (.tar.gz) as importPod does, reading it once: its binaries stream into the new pod's
 * store as the archive reaches them (with `--blob-store s3://…`, into the bucket with no copy on the local disk),
 * its other files go to a folder beside the data directory, removed after. Each binary is matched with the
 * manifest's entry naming it (and its SHA-256) once the whole archive is read; one nothing names is discarded.
 */
export async function importArchive(dataDir: string, file: string, baseUrl: string, s3: S3BlobConfig | undefined, unpack: UnpackArchive): Promise<void> {
  dataDir = checkTarget(dataDir)
  const work = dirname(dataDir)
  mkdirSync(work, { recursive: true })
  let holder: string | undefined
  const stored = new Map<string, StoredBlob>()
  try {
    await importInto(dataDir, baseUrl, s3, async store => {
      const unpacked = await unpack(file, work, async (name, bytes) => {
        if (stored.has(name)) throw new ImportError(`${file} holds ${BLOBS_DIR}/${name} twice; the export is damaged`)
        stored.set(name, await storeBlob(store, `${BLOBS_DIR}/${name}`, bytes))
      })
      holder = unpacked.holder
      const blobOf: BlobOf = async (store, entry) => {
        const name = checkBlobEntry(entry)
        const blob = stored.get(name)
        if (!blob) throw new ImportError(`binary ${entry.path}: ${BLOBS_DIR}/${name} is missing; the export is incomplete`)
        stored.delete(name)
        return checkedBlob(store, entry, blob)
      }
      // A binary the manifest does not name is not part of the pod.
      const unnamed = () => [...stored.values()]
      return { srcDir: unpacked.exportDir, manifest: readManifest(unpacked.exportDir), blobOf, unnamed }
    })
  } finally {
    if (holder) rmSync(holder, { recursive: true, force: true })
  }
}

/** `dataDir`, resolved, once it is known to be missing or empty. */
function checkTarget(dataDir: string): string {
  dataDir = resolve(dataDir)
  if (existsSync(dataDir) && (!statSync(dataDir).isDirectory() || readdirSync(dataDir).length > 0)) {
    throw new ImportError(`${dataDir} is not empty; import only restores into a new or empty data directory`)
  }
  return dataDir
}

async function importInto(
  dataDir: string,
  baseUrl: string,
  s3: S3BlobConfig | undefined,
  source: (store: Store) => Promise<{ srcDir: string; manifest: Manifest; blobOf: BlobOf; unnamed?: () => StoredBlob[] }>,
): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true })
  const staging = `${dataDir}.import-${process.pid}-${Date.now()}`
  try {
    // With --blob-store s3://…, the files' bytes stream into the bucket (a failed import's objects are orphans the
    // pod sweeps once their grace period is over).
    const store = await openStore(staging, s3 ? { s3 } : {})
    try {
      const { srcDir, manifest, blobOf, unnamed } = await source(store)
      const rebase = rebaser(manifest.baseUrl, baseUrl)
      await restoreResources(store, manifest, blobOf)
      for (const blob of unnamed?.() ?? []) store.blobs.discard(blob.id)
      const quads = await restoreQuads(store, join(srcDir, QUADS_FILE), rebase)
      if (quads !== manifest.counts.quads)
        throw new ImportError(`${QUADS_FILE} holds ${quads} quads, the manifest says ${manifest.counts.quads}; the export is incomplete`)
      const state = await restoreState(store, join(srcDir, STATE_FILE), rebase)
      if (state !== manifest.counts.state)
        throw new ImportError(`${STATE_FILE} holds ${state} entries, the manifest says ${manifest.counts.state}; the export is incomplete`)
      await recordBaseUrl(store, baseUrl)
      // The contents are those of the export's format (the layout is always this binary's): the first open
      // of the new data directory migrates them forward (src/migrations/data-format.ts).
      await recordFormatVersion(store, Math.max(manifest.formatVersion, STORE_LAYOUT_FORMAT))
    } finally {
      await store.close()
    }
    // rmdir, not rm -r: it fails rather than delete anything that appeared in the meantime.
    if (existsSync(dataDir)) rmdirSync(dataDir)
    renameSync(staging, dataDir)
    // The rename into place is durable only once the parent directory's entry is on disk.
    syncDirectory(dirname(dataDir))
  } catch (err) {
    rmSync(staging, { recursive: true, force: true })
    throw err
  }
}

function readManifest(srcDir: string): Manifest {
  const file = join(srcDir, MANIFEST_FILE)
  if (!existsSync(file)) throw new ImportError(`${srcDir} has no ${MANIFEST_FILE}; is it a solopod export directory?`)
  let manifest: Manifest
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest
  } catch (err) {
    throw new ImportError(`${file} is not valid JSON; the export is damaged`, { cause: err })
  }
  if (manifest.kind !== EXPORT_KIND) throw new ImportError(`${file} is not a solopod export manifest`)
  // Every format exports alike (binaries as files with their SHA-256); 1 and 2 differ only in the data
  // directory's layout, 3 has the settings documents an older one gains at its first open.
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion < 1 || manifest.formatVersion > FORMAT_VERSION) {
    throw new ImportError(
      `${srcDir} was exported from data format ${JSON.stringify(manifest.formatVersion)}; ` +
        `this solopod understands format ${FORMAT_VERSION}; import it with the solopod version that wrote it (or a newer one)`,
    )
  }
  if (typeof manifest.baseUrl !== 'string' || !Array.isArray(manifest.resources) || typeof manifest.counts !== 'object') {
    throw new ImportError(`${file} lacks baseUrl, resources or counts; the export is damaged`)
  }
  if (manifest.resources.length !== manifest.counts.resources) {
    throw new ImportError(`${file} lists ${manifest.resources.length} resources but counts ${manifest.counts.resources}; the export is incomplete`)
  }
  return manifest
}

/**
 * Maps IRIs on the old origin to the new one. Only the origin itself or the origin followed by
 * `/`, `#` or `?` matches: `http://localhost:3000` must not rewrite `http://localhost:30001/x`.
 */
export function rebaser(from: string, to: string): (iri: string) => string {
  if (from === to) return iri => iri
  return iri => (iri === from || (iri.startsWith(from) && '/#?'.includes(iri[from.length]!)) ? to + iri.slice(from.length) : iri)
}

/**
 * Metadata and membership index in synced batches of bounded size; each binary streamed from its file into
 * the new pod's blob store (checked against its SHA-256 on the way), never whole in memory.
 */
async function restoreResources(store: Store, manifest: Manifest, blobOf: BlobOf) {
  let batch = store.db.batch()
  let entries = 0
  const flush = async () => {
    await batch.write({ sync: true })
    batch = store.db.batch()
    entries = 0
  }
  for (const entry of manifest.resources) {
    const { path, meta } = checkEntry(entry)
    const parent = parentPath(path)
    // Same rule as writeResource: auxiliary resources (ACLs) are not container members.
    if (parent !== undefined && !isAuxiliaryPath(path)) batch.put(`${parent}\0${path}`, UNREAD_VALUE, inSublevel(store.contains))
    // The name index is derived, not exported: built here as writes build it (name-index.ts)
    for (const key of nameIndexEntries(path)) batch.put(key, UNREAD_VALUE, inSublevel(store.names))
    if (meta.kind === 'binary') {
      const blob = await blobOf(store, entry)
      batch.put(path, { ...meta, size: blob.size, blob: blob.id, sha256: blob.sha256 }, inSublevel(store.meta))
      batch.put(blob.id, path, inSublevel(store.blobRefs))
    } else {
      batch.put(path, meta, inSublevel(store.meta))
    }
    if (++entries >= BATCH_ENTRIES) await flush()
  }
  await flush()
}

function checkEntry(entry: ExportedResource): { path: string; meta: ResourceMeta } {
  const { path, file: _file, blob: _blob, ...meta } = entry
  if (typeof path !== 'string' || !path.startsWith('/') || !['container', 'rdf', 'binary'].includes(meta.kind)) {
    throw new ImportError(`manifest entry ${JSON.stringify(path)} is malformed; the export is damaged`)
  }
  // Every other field is kept as exported, so metadata added by later versions survives too.
  return { path, meta }
}

async function restoreBlob(store: Store, srcDir: string, entry: ExportedResource): Promise<StoredBlob> {
  const name = checkBlobEntry(entry)
  const file = join(srcDir, BLOBS_DIR, name)
  if (!existsSync(file)) throw new ImportError(`binary ${entry.path}: ${BLOBS_DIR}/${name} is missing; the export is incomplete`)
  return checkedBlob(store, entry, await storeBlob(store, `binary ${entry.path}: ${BLOBS_DIR}/${name}`, createReadStream(file)))
}

/** The manifest entry's file name under `blobs/`. */
function checkBlobEntry(entry: ExportedResource): string {
  if (!entry.file || !/^[\w.-]+$/.test(entry.file) || !entry.sha256) {
    throw new ImportError(`binary ${entry.path} has no valid file name or checksum in the manifest; the export is damaged`)
  }
  return entry.file
}

/** An export's file into the new pod's blob store, streamed (its SHA-256 computed on the way). */
async function storeBlob(store: Store, what: string, bytes: BlobSource): Promise<StoredBlob> {
  try {
    return await store.blobs.put(bytes, { reserveBytes: 0 })
  } catch (err) {
    throw new ImportError(`${what} could not be stored: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
}

/** The stored binary, when it is the bytes the manifest says; otherwise it goes and the import fails. */
function checkedBlob(store: Store, entry: ExportedResource, blob: StoredBlob): StoredBlob {
  if (blob.sha256 !== entry.sha256) {
    store.blobs.discard(blob.id)
    throw new ImportError(`binary ${entry.path}: ${BLOBS_DIR}/${entry.file} does not match its SHA-256 in the manifest; the export is damaged`)
  }
  return blob
}

/** pod.nq streamed through n3's parser into synced quadstore batches, IRIs rebased. */
async function restoreQuads(store: Store, file: string, rebase: (iri: string) => string): Promise<number> {
  if (!existsSync(file)) throw new ImportError(`${QUADS_FILE} is missing; the export is incomplete`)
  // '_:' keeps blank node labels as written, so the store holds exactly what was exported.
  const parser = new StreamParser({ format: 'N-Quads', blankNodePrefix: '_:' })
  const term = <T extends Term>(t: T): T => {
    if (t.termType === 'NamedNode') return namedNode(rebase(t.value)) as unknown as T
    if (t.termType === 'Literal' && t.language === '') {
      const dt = rebase(t.datatype.value)
      return dt === t.datatype.value ? t : (literal(t.value, namedNode(dt)) as unknown as T)
    }
    return t
  }
  let chunk: Quad[] = []
  let n = 0
  const put = async () => {
    if (chunk.length === 0) return
    await store.db.batch(graphChangeOps(store.quads, [], chunk), { sync: true })
    n += chunk.length
    chunk = []
  }
  const stream = createReadStream(file).pipe(parser)
  try {
    for await (const q of stream as AsyncIterable<Quad>) {
      chunk.push(quad(term(q.subject), term(q.predicate), term(q.object), term(q.graph)) as Quad)
      if (chunk.length >= QUAD_CHUNK) await put()
    }
  } catch (err) {
    if (err instanceof ImportError) throw err
    throw new ImportError(`${QUADS_FILE} is not valid N-Quads: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
  await put()
  return n
}

/** state.jsonl back into `system` and `records`; IRIs on the old origin inside values move too. */
async function restoreState(store: Store, file: string, rebase: (iri: string) => string): Promise<number> {
  if (!existsSync(file)) throw new ImportError(`${STATE_FILE} is missing; the export is incomplete`)
  const batch = store.db.batch()
  let n = 0
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })
  for await (const text of lines) {
    if (text === '') continue
    let line: StateLine
    try {
      line = JSON.parse(text) as StateLine
    } catch (err) {
      throw new ImportError(`${STATE_FILE} line ${n + 1} is not JSON; the export is damaged`, { cause: err })
    }
    const key = line.key.split('\0').map(rebase).join('\0')
    if (line.space === 'system' && !DIRECTORY_KEYS.includes(key)) batch.put(key, rebaseJson(line.value, rebase), inSublevel(store.system))
    else if (line.space === 'records') batch.put(key, rebaseJson(line.value, rebase), inSublevel(store.records))
    else if (line.space !== 'system') throw new ImportError(`${STATE_FILE} line ${n + 1} names an unknown space; the export is damaged`)
    n++
  }
  await batch.write({ sync: true })
  return n
}

/** Every string in a JSON value that is an IRI on the old origin (owner WebID, issuer, client URLs). */
function rebaseJson(value: unknown, rebase: (iri: string) => string): unknown {
  if (typeof value === 'string') return rebase(value)
  if (Array.isArray(value)) return value.map(v => rebaseJson(v, rebase))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebaseJson(v, rebase)]))
  }
  return value
}
