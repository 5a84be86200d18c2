// Before the owner shares with a person, the pod reads their WebID: a typo would otherwise give access to
// nobody (or to whoever later holds that URL). The document is fetched through the one guarded fetcher and
// must describe the WebID (a statement with it as subject). A WebID without a #fragment is usually the
// profile document, not the person: the owner is asked "Did you mean …#me?" before anything is written.
// The remote document is a stranger's: it is read under the profile cap, parsed off the event loop, and
// nothing of it is quoted back except an IRI it names as its primary topic (checked to be a URL).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { REMOTE_DOCUMENT_CAPS } from '../fetch/guarded-fetch.ts'
import { parseRemoteRdf } from '../rdf/parse-off-thread.ts'
import { FOAF } from '../rdf/namespaces.ts'
import { isIri } from './acl-entries.ts'

const PROFILE_TYPES = ['text/turtle', 'application/ld+json', 'application/n-triples']
const PRIMARY_TOPIC = FOAF('primaryTopic')
const ABOUT_THE_DOCUMENT = new Set([PRIMARY_TOPIC, FOAF('maker')])

export type WebIdCheck =
  /** The document describes the WebID: share with it. */
  | { readonly ok: true; readonly webid: string }
  /** No fragment: ask first. `suggestion` is the fragment form the document names, if any; `describes`: the URL as typed is itself described. */
  | { readonly ok: false; readonly webid: string; readonly suggestion?: string; readonly describes: boolean }

const notFound = () =>
  new HttpError(
    422,
    'webid_not_found',
    "the WebID could not be read: the pod found no profile document at that address (check it for typos; the person's pod must answer it publicly as Turtle or JSON-LD)",
  )
const notProfile = () =>
  new HttpError(
    422,
    'not_a_profile',
    'the document at that address is not a profile of this WebID: it has no statement about it (check the part after #, e.g. #me)',
  )

export async function checkWebId(deps: Pick<Deps, 'fetchDoc'>, raw: string): Promise<WebIdCheck> {
  const webid = raw.trim()
  if (!isIri(webid) || !/^https?:\/\//.test(webid)) throw new HttpError(400, 'invalid_field', 'WebID: enter a full URL (https://…) with no spaces')
  const doc = await deps
    .fetchDoc(webid, {
      accept: 'text/turtle, application/ld+json;q=0.9, application/n-triples;q=0.8',
      allowedTypes: PROFILE_TYPES,
      maxBytes: REMOTE_DOCUMENT_CAPS.profile,
    })
    .catch((err: unknown) => {
      if (err instanceof HttpError && err.status < 500 && err.code !== 'fetch_failed') throw err
      if (err instanceof HttpError && (err.code === 'remote_fetch_limit' || err.code === 'remote_fetch_busy')) throw err
      throw notFound()
    })
  const triples = await parseRemoteRdf(doc.body, doc.contentType, doc.url).catch(() => {
    throw notProfile()
  })
  const about = (iri: string) => triples.some(q => q.subject.termType === 'NamedNode' && q.subject.value === iri)
  const hasFragment = new URL(webid).hash.length > 1
  if (hasFragment) {
    if (!about(webid)) throw notProfile()
    return { ok: true, webid }
  }
  const docUrl = doc.url
  const named = triples.find(
    q => (q.subject.value === docUrl || q.subject.value === webid) && q.predicate.value === PRIMARY_TOPIC && q.object.termType === 'NamedNode',
  )?.object.value
  const fallback = about(`${docUrl}#me`) ? `${docUrl}#me` : undefined
  const suggestion = named && isIri(named) && /^https?:\/\//.test(named) && named.length <= 2048 && about(named) ? named : fallback
  // The document's statements about itself (what it is, whom it is about) do not make it a person
  const describes = triples.some(
    q => q.subject.value === webid && !ABOUT_THE_DOCUMENT.has(q.predicate.value) && q.object.value !== FOAF('PersonalProfileDocument'),
  )
  if (!suggestion && !describes) throw notProfile()
  return { ok: false, webid, ...(suggestion ? { suggestion } : {}), describes }
}
