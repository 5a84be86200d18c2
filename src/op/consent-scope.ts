// The consent page's second question: full access, or only some folders. What the app asked for
// (folders of this pod, or classes the owner's type indexes register) is proposed; the owner decides.

import type { Quad } from '@rdfjs/types'
import type { Deps } from '../deps.ts'
import { getMeta, readTriples } from '../store/resources.ts'
import { folderPathOf } from '../policy/app-scope.ts'
import { PROFILE_PATH } from '../policy/pod-essentials.ts'
import type { FolderRow } from '../http/access-choice-form.ts'

type ScopeDeps = Pick<Deps, 'cfg' | 'store'>

const SOLID = 'http://www.w3.org/ns/solid/terms#'
const PIM = 'http://www.w3.org/ns/pim/space#'

/**
 * What the app names: scope values that are URLs (OAuth 2.0 scope tokens may be URIs; unknown ones are
 * otherwise ignored, OIDC Core §3.1.2.1) — a folder of this pod, or an RDF class that the owner's type
 * indexes (Solid Type Indexes: solid:forClass → solid:instanceContainer / solid:instance) register somewhere.
 */
export async function proposedFolders(deps: ScopeDeps, wants: readonly string[]): Promise<FolderRow[]> {
  const { baseUrl } = deps.cfg
  const rows = new Map<string, FolderRow>()
  const registrations = wants.some(w => !w.startsWith(baseUrl + '/')) ? await typeRegistrations(deps) : []
  for (const want of wants) {
    if (want.startsWith(baseUrl + '/')) {
      try {
        const path = folderPathOf(want, baseUrl)
        rows.set(path, { path, right: 'write', because: 'the app asks for it' })
      } catch {
        /* not a usable path: not proposed */
      }
      continue
    }
    for (const r of registrations) {
      if (r.forClass !== want) continue
      rows.set(r.folder, { path: r.folder, right: 'write', because: `your type index keeps ${shortName(want)} here` })
    }
  }
  return [...rows.values()]
}

const shortName = (iri: string) => iri.replace(/^.*[#/](?=[^#/]+$)/, '')

interface Registration {
  readonly forClass: string
  readonly folder: string
}

/** Registrations of the public and the private type index the owner's profile and preferences file link. */
async function typeRegistrations(deps: ScopeDeps): Promise<Registration[]> {
  const { store, cfg } = deps
  const read = async (url: string): Promise<Quad[]> => {
    if (!url.startsWith(cfg.baseUrl + '/')) return []
    const path = url.slice(cfg.baseUrl.length).split('#', 1)[0]!
    const meta = await getMeta(store, path)
    return meta?.kind === 'rdf' ? readTriples(store, cfg.baseUrl, path) : []
  }
  const objects = (quads: readonly Quad[], predicate: string) =>
    quads.filter(q => q.predicate.value === predicate && q.object.termType === 'NamedNode').map(q => q.object.value)
  const profile = await read(cfg.baseUrl + PROFILE_PATH)
  const prefs = (await Promise.all(objects(profile, PIM + 'preferencesFile').map(read))).flat()
  const indexes = [...objects(profile, SOLID + 'publicTypeIndex'), ...objects(prefs, SOLID + 'privateTypeIndex')]
  const out: Registration[] = []
  for (const quads of await Promise.all(indexes.map(read))) {
    for (const reg of new Set(quads.filter(q => q.predicate.value === SOLID + 'forClass').map(q => q.subject.value))) {
      const of = (p: string) =>
        objects(
          quads.filter(q => q.subject.value === reg),
          p,
        )
      const folders = [...of(SOLID + 'instanceContainer'), ...of(SOLID + 'instance').map(i => i.replace(/[^/]*$/, ''))]
      for (const forClass of of(SOLID + 'forClass'))
        for (const f of folders) {
          try {
            out.push({ forClass, folder: folderPathOf(f, cfg.baseUrl) })
          } catch {
            /* elsewhere: not this pod's */
          }
        }
    }
  }
  return out
}
