// A WebID shown as the person it names (issue 40): the name and picture their profile gives, so the owner reads
// "Alice Martin" in Sharing, the share page and the activity, not a URL. Pages never wait for a profile: they show
// what is known now and ask for the rest in the background, through the one guarded fetcher (its caps, its
// per-client budget, parsed off the event loop). A profile is a stranger's document: only a short plain-text name and
// an http(s) picture URL are kept of it, bounded in number and bytes; a failed read is remembered for a while too.

import { REMOTE_DOCUMENT_CAPS, type FetchDoc } from '../fetch/guarded-fetch.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { parseRemoteRdf } from '../rdf/parse-off-thread.ts'
import { FOAF, VCARD } from '../rdf/namespaces.ts'
import { log, describeCause } from '../log.ts'

export interface PersonCard {
  /** Plain text, at most NAME_CHARS characters; absent when the profile names nobody. */
  readonly name?: string
  /** An http(s) URL the profile gives as the person's picture. */
  readonly picture?: string
}

const PROFILE_TYPES = ['text/turtle', 'application/ld+json', 'application/n-triples']
const NAME_PREDICATES = [FOAF('name'), VCARD('fn')]
const PICTURE_PREDICATES = [VCARD('hasPhoto'), FOAF('img'), FOAF('depiction')]
const NAME_CHARS = 80
const URL_CHARS = 2048
const CARDS_KEPT = 2_000
const CARD_BYTES = 512 * 1024
const KEEP_MS = 60 * 60_000
const FAILED_KEEP_MS = 10 * 60_000
/** Profiles read at once in the background: a page of 100 strangers must not become 100 fetches together. */
const READING_AT_ONCE = 4

export interface PersonCards {
  /** What is known of `webid` now (never waits); undefined until its profile has been read. */
  peek(webid: string): PersonCard | undefined
  /** Reads the profiles not yet known, in the background, a few at a time. */
  learn(webids: Iterable<string>): void
  /** Resolves when every profile asked for so far has been read or given up on (tests, and a page that may wait briefly). */
  settled(): Promise<void>
}

export function makePersonCards(fetchDoc: FetchDoc, now: () => number = Date.now): PersonCards {
  const known = new LruCache<string, PersonCard>(CARDS_KEPT, { maxWeight: CARD_BYTES })
  const waiting: string[] = []
  const asked = new Set<string>()
  let reading = 0
  let idle: (() => void)[] = []

  async function read(webid: string): Promise<void> {
    try {
      const doc = await fetchDoc(webid, {
        accept: 'text/turtle, application/ld+json;q=0.9, application/n-triples;q=0.8',
        allowedTypes: PROFILE_TYPES,
        maxBytes: REMOTE_DOCUMENT_CAPS.profile,
      })
      const card = cardOf(await parseRemoteRdf(doc.body, doc.contentType, doc.url), webid)
      known.set(webid, card, now() + KEEP_MS, webid.length + (card.name?.length ?? 0) + (card.picture?.length ?? 0))
    } catch (err) {
      // Said at debug only: a stranger's profile being down is not the owner's problem, and is shown as the WebID
      log.debug('person.profile_unread', { cause: describeCause(err) })
      known.set(webid, {}, now() + FAILED_KEEP_MS, webid.length)
    }
  }

  function next(): void {
    while (reading < READING_AT_ONCE && waiting.length > 0) {
      const webid = waiting.shift()!
      reading++
      void read(webid).finally(() => {
        reading--
        asked.delete(webid)
        next()
      })
    }
    if (reading === 0 && waiting.length === 0) {
      const done = idle
      idle = []
      for (const resolve of done) resolve()
    }
  }

  return {
    peek: webid => known.get(webid, now()),
    learn(webids) {
      for (const webid of webids) {
        if (asked.has(webid) || known.get(webid, now()) !== undefined || !/^https?:\/\//.test(webid) || webid.length > URL_CHARS) continue
        asked.add(webid)
        waiting.push(webid)
      }
      next()
    },
    settled: () => (reading === 0 && waiting.length === 0 ? Promise.resolve() : new Promise(resolve => idle.push(resolve))),
  }
}

type Quads = Awaited<ReturnType<typeof parseRemoteRdf>>

function cardOf(quads: Quads, webid: string): PersonCard {
  const about = quads.filter(q => q.subject.termType === 'NamedNode' && q.subject.value === webid)
  const name = NAME_PREDICATES.map(p => about.find(q => q.predicate.value === p && q.object.termType === 'Literal')?.object.value)
    .map(v => (v === undefined ? undefined : plainName(v)))
    .find(v => v !== undefined && v !== '')
  const picture = PICTURE_PREDICATES.map(p => about.find(q => q.predicate.value === p && q.object.termType === 'NamedNode')?.object.value).find(
    v => v !== undefined && isPictureUrl(v),
  )
  return { ...(name ? { name } : {}), ...(picture ? { picture } : {}) }
}

/** One line of text: controls and bidi overrides out (a name must not reorder the page around it), whitespace folded, cut. */
function plainName(value: string): string {
  const cleaned = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return cleaned.length > NAME_CHARS ? `${cleaned.slice(0, NAME_CHARS - 1)}…` : cleaned
}

function isPictureUrl(value: string): boolean {
  if (value.length > URL_CHARS || !URL.canParse(value)) return false
  const url = new URL(value)
  return url.protocol === 'https:' || (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1'))
}
