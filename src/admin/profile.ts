// GET /.admin/api/profile: the fields of the owner's WebID document the profile form edits. Saving is
// an N3 Patch (Solid Protocol §5.3.1) of /profile/card through the resource server.

import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { FOAF, VCARD } from '../rdf/namespaces.ts'
import { getMeta, readTriples } from '../store/resources.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>

/** Form field → predicate; each holds one value (a literal, or an IRI for picture and homepage). */
export const PROFILE_FIELDS = {
  name: { predicate: FOAF('name'), iri: false },
  picture: { predicate: VCARD('hasPhoto'), iri: true },
  note: { predicate: VCARD('note'), iri: false },
  homepage: { predicate: FOAF('homepage'), iri: true },
} as const

export async function readProfile(deps: AdminDeps) {
  const { baseUrl } = deps.cfg
  const webid = ownerWebIdOf(baseUrl)
  const document = webid.replace(/#.*$/, '')
  const path = document.slice(baseUrl.length)
  const meta = await getMeta(deps.store, path)
  const triples = meta ? await readTriples(deps.store, baseUrl, path) : []
  const fields: Record<string, { predicate: string; iri: boolean; value: string | null; values: number }> = {}
  for (const [name, f] of Object.entries(PROFILE_FIELDS)) {
    const objects = triples.filter((q) => q.subject.value === webid && q.predicate.value === f.predicate).map((q) => q.object)
    fields[name] = { predicate: f.predicate, iri: f.iri, value: objects[0]?.value ?? null, values: objects.length }
  }
  return { webid, document, fields }
}
