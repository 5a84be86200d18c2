// The fields of the owner's WebID document the profile form edits (GET /.admin/api/profile), and saving
// them (the form, or POST /.admin/api/profile): an N3 Patch (Solid Protocol §5.3.1) through the operations
// layer, as the owner.

import type { Quad } from '@rdfjs/types'
import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { FOAF, VCARD } from '../rdf/namespaces.ts'
import { HttpError } from '../http/errors.ts'
import { isWebUrl } from '../lib/web-url.ts'
import { missingProfileStatements } from '../policy/pod-essentials.ts'
import { NO_PRECONDITIONS } from '../resources/preconditions.ts'
import { ownerActing, whenMissing } from './owner-acting.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'resources'>

/** Form field → predicate; each holds one value (a literal, or an IRI for picture and homepage). */
export const PROFILE_FIELDS = {
  name: { predicate: FOAF('name'), iri: false },
  picture: { predicate: VCARD('hasPhoto'), iri: true },
  note: { predicate: VCARD('note'), iri: false },
  homepage: { predicate: FOAF('homepage'), iri: true },
} as const

async function readCard(deps: AdminDeps) {
  const { baseUrl } = deps.cfg
  const webid = ownerWebIdOf(baseUrl)
  const document = webid.replace(/#.*$/, '')
  // A WebID document that is not there has no fields yet (Save creates it)
  const triples = await deps.resources.statements(ownerActing(baseUrl), document.slice(baseUrl.length)).then(d => d.triples, whenMissing([]))
  return { webid, document, triples }
}

export async function readProfile(deps: AdminDeps) {
  const { webid, document, triples } = await readCard(deps)
  return { webid, document, fields: profileFields(webid, triples) }
}

/** The form's fields as the WebID document's `triples` hold them. */
export function profileFields(webid: string, triples: readonly Quad[]) {
  const fields: Record<string, { predicate: string; iri: boolean; value: string | null; values: number }> = {}
  for (const [name, f] of Object.entries(PROFILE_FIELDS)) {
    const objects = triples.filter(q => q.subject.value === webid && q.predicate.value === f.predicate).map(q => q.object)
    fields[name] = { predicate: f.predicate, iri: f.iri, value: objects[0]?.value ?? null, values: objects.length }
  }
  return fields
}

export const PROFILE_LABELS: Record<keyof typeof PROFILE_FIELDS, string> = {
  name: 'Name',
  picture: 'Picture (image URL)',
  note: 'About you',
  homepage: 'Home page',
}

// Turtle IRIREF (Turtle (W3C Recommendation 2014) §6.4) excludes these even where a URL parser keeps them
const iriRef = (url: string) => `<${new URL(url).href.replace(/[\s<>"{}|\\^`]/g, encodeURIComponent)}>`

/**
 * Saves the profile form: each field given that differs from what was read is replaced, in one N3
 * Patch (Solid Protocol §5.3.1) applied by the operations layer as the owner. Returns false when nothing changed.
 * A field holding several values is left to the Turtle editor (409): the form would drop the others.
 * The statements the pod needs (policy/pod-essentials.ts) are never touched, and put back if they are missing.
 */
export async function saveProfile(deps: AdminDeps, values: Record<string, unknown>): Promise<boolean> {
  const profile = await readProfile(deps)
  const unknown = Object.keys(values).filter(k => !(k in PROFILE_FIELDS) && k !== 'csrf')
  if (unknown.length)
    throw new HttpError(400, 'invalid_field', `unknown profile field ${unknown.join(', ')}; the form has ${Object.keys(PROFILE_FIELDS).join(', ')}`)
  const deletes: string[] = []
  const inserts: string[] = []
  for (const [name, f] of Object.entries(profile.fields)) {
    const label = PROFILE_LABELS[name as keyof typeof PROFILE_FIELDS]
    const raw = values[name]
    if (raw === undefined) continue
    if (typeof raw !== 'string') throw new HttpError(400, 'invalid_field', `${label}: expected text`)
    const v = raw.trim()
    if (v === (f.value ?? '')) continue
    if (f.values > 1)
      throw new HttpError(409, 'several_values', `${label}: your profile holds ${f.values} values here; edit the profile document as Turtle in Files`)
    if (v && f.iri && !isWebUrl(v)) throw new HttpError(400, 'invalid_field', `${label}: enter a full URL starting with https:// (or http://)`)
    const term = (x: string) => (f.iri ? iriRef(x) : JSON.stringify(x)) // a JSON string is a valid Turtle string literal
    if (f.value !== null) deletes.push(`<${profile.webid}> <${f.predicate}> ${term(f.value)}.`)
    if (v) inserts.push(`<${profile.webid}> <${f.predicate}> ${term(v)}.`)
  }
  for (const m of missingProfileStatements((await readCard(deps)).triples, deps.cfg.baseUrl)) inserts.push(`<${m.subject}> <${m.predicate}> <${m.object}>.`)
  if (!deletes.length && !inserts.length) return false
  const patch = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:patch a solid:InsertDeletePatch;
  solid:deletes { ${deletes.join(' ')} };
  solid:inserts { ${inserts.join(' ')} }.`
  const who = ownerActing(deps.cfg.baseUrl)
  const path = profile.document.slice(deps.cfg.baseUrl.length)
  await deps.resources.admitPatch(who, path)
  await deps.resources.patch(who, path, { mediaType: 'text/n3', text: patch }, NO_PRECONDITIONS)
  return true
}
