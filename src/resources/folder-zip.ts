// A folder, or some of its members, as one zip download (issues 38 and 40), for every face that offers one: the
// owner's Files page and share links. Streamed: what goes out is decided and read a member at a time, a file's
// bytes straight from the blob store (client-zip stores them as they come, with ZIP64 past 4 GB and the UTF-8
// name flag), so a folder of any size costs the memory of one member's chunk. Only what the principal may read
// goes in: a member it may not read is left out, not an error, as a folder listing would leave it unseen.

import { HttpError } from '../http/errors.ts'
import { readMemberChunks } from '../store/container-members.ts'
import { getMeta } from '../store/resources.ts'
import { isAcl } from '../store/acl-names.ts'
import { requiredModes } from '../policy/modes.ts'
import { serializeDocument } from '../rdf/serialize-rdf.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { readDocumentStatements } from './document-statements.ts'
import { blobRefusal } from './blob-unavailable.ts'
import { requireContainerPath } from './resource-names.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'
import type { Readable } from './read-resource.ts'

/** How much one zip takes: items at any depth (files and folders), and folders nested in one another. */
export interface ZipLimits {
  readonly items: number
  readonly depth: number
}
export const ZIP_LIMITS: ZipLimits = { items: 50_000, depth: 32 }

/** client-zip loads with the first zip, not on every start of the pod (docs/performance.md). */
const loadClientZip = () => import('client-zip')

export interface ZipRequest {
  /** Only these members of the folder (stored paths directly inside it, each with everything in it); all when absent. */
  readonly only?: readonly string[]
  /** Asked before each member goes out; what it throws ends the download there (a share link revoked or expired meanwhile). */
  readonly stillAllowed?: () => Promise<void>
}

type Read = (who: Acting, path: string) => Promise<Readable>

interface Planned {
  readonly path: string
  /** The path inside the zip as people read it (`Été #1/notes.txt`); a folder's ends with `/`. */
  readonly name: string
}

export function makeFolderZip(deps: ResourcesDeps, read: Read, limits: ZipLimits = ZIP_LIMITS) {
  const { store } = deps
  const baseUrl = deps.cfg.baseUrl

  /** Read on `path`, as a GET of it (a folder: its listing) needs; a refusal leaves the item out, anything else stands. */
  const mayRead = (who: Acting, path: string) =>
    decide(deps, who, path, requiredModes({ method: 'GET', url: baseUrl + path, exists: true })).then(
      () => true,
      (err: unknown) => {
        if (err instanceof HttpError && (err.status === 401 || err.status === 403)) return false
        throw err
      },
    )

  const tooLarge = (path: string, why: string) => new HttpError(413, 'too_large_for_zip', `${path} ${why}; download the folders inside it one by one`)

  /**
   * Every item to go out, in path order, folders first then what they hold, found before the first byte is sent:
   * so a folder over the limits is refused with a status, not cut short. Only the folders the principal may list
   * are entered; the items themselves are decided again as they go out.
   */
  async function plan(who: Acting, folder: string, only: ReadonlySet<string> | undefined): Promise<Planned[]> {
    const out: Planned[] = []
    const walk = async (container: string, depth: number): Promise<void> => {
      for await (const chunk of readMemberChunks(store, container)) {
        for (const m of chunk) {
          if (isAcl(m.path) || (depth === 1 && only !== undefined && !only.has(m.path))) continue
          if (out.length >= limits.items) throw tooLarge(folder, `holds more than ${limits.items.toLocaleString('en')} items`)
          const isFolder = m.meta.kind === 'container'
          if (isFolder && !(await mayRead(who, m.path))) continue
          out.push({ path: m.path, name: readablePath(m.path.slice(folder.length)) })
          if (!isFolder) continue
          if (depth >= limits.depth) throw tooLarge(folder, `has folders more than ${limits.depth} deep`)
          await walk(m.path, depth + 1)
        }
      }
    }
    await walk(folder, 1)
    return out
  }

  /** One item as client-zip takes it, as it is stored now; undefined when it went or may no longer be read. */
  async function entryOf(who: Acting, item: Planned) {
    if (!(await mayRead(who, item.path))) return undefined
    const meta = await getMeta(store, item.path)
    if (!meta) return undefined
    const lastModified = new Date(meta.modified)
    if (meta.kind === 'container') return { name: item.name, lastModified }
    if (meta.kind === 'rdf') {
      // The document as stored, in Turtle (TriG when it holds named graphs, which Turtle cannot say)
      const { triples, namedGraphs } = await readDocumentStatements(store, baseUrl, item.path, meta)
      const type = namedGraphs.length > 0 ? 'application/trig' : 'text/turtle'
      return { name: item.name, lastModified, input: await serializeDocument(triples, namedGraphs, type, baseUrl + item.path, meta.prefixes) }
    }
    if (meta.blob === undefined) return { name: item.name, lastModified, input: new Uint8Array(0) }
    const bytes = await store.blobs.open(meta.blob).catch((err: unknown) => {
      throw blobRefusal(err)
    })
    return { name: item.name, lastModified, size: meta.size, input: bytes }
  }

  return async function zipFolder(who: Acting, path: string, request: ZipRequest = {}): Promise<ReadableStream<Uint8Array>> {
    requireContainerPath(path)
    const { meta } = await read(who, path)
    if (meta.kind !== 'container') throw new HttpError(400, 'not_a_container', `${path} is not a folder`)
    const only = request.only === undefined ? undefined : new Set(request.only)
    for (const p of only ?? []) {
      const inside = p.startsWith(path) ? p.slice(path.length) : ''
      if (inside === '' || inside.slice(0, -1).includes('/')) throw new HttpError(400, 'invalid_request', `${p} is not an item of ${path}`)
    }
    const items = await plan(who, path, only)
    async function* entries() {
      for (const item of items) {
        await request.stillAllowed?.()
        const entry = await entryOf(who, item)
        if (entry) yield entry
      }
    }
    return (await loadClientZip()).makeZip(entries(), { buffersAreUTF8: true })
  }
}

/** The name a zip of the folder `path` is saved under: the folder's, as people read it. */
export const zipName = (path: string) => `${readableName(path) || 'pod'}.zip`
