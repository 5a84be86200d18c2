// Memento (RFC 7089) on the resource server: every resource is its own TimeGate (Pattern 1.1, 302-style), its TimeMap
// is `URI-R?ext=timemap`, its mementos `URI-R?version={ms}` (docs/versions.md).

import { HttpError } from '../http/errors.ts'
import { negotiate } from '../http/content-negotiation.ts'
import { httpDate } from '../resources/http-date.ts'
import type { TimeMap } from '../resources/versions.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'

/** What a GET or HEAD asks of a resource's past: its TimeMap, one memento, the state at a time, or nothing (the present). */
export type PastAsk = { kind: 'timemap' } | { kind: 'memento'; from: number } | { kind: 'at'; at: number }

export const timeMapUrl = (url: string) => `${url}?ext=timemap`
export const mementoUrl = (url: string, from: number) => `${url}?version=${from}`
const LINK_FORMAT = 'application/link-format'
const TURTLE = 'text/turtle'
/** RFC 7089 §2.2.1: the resource is its own TimeGate; the TimeMap is typed so a client knows what it gets. */
const mementoLinks = (url: string) => `<${url}>; rel="original timegate", <${timeMapUrl(url)}>; rel="timemap"; type="${LINK_FORMAT}"`

// RFC 7089 §2.1.1: Accept-Datetime is an HTTP-date in the IMF-fixdate form of RFC 9110 §5.6.7 (RFC 1123 dates).
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** Epoch ms of an Accept-Datetime value; 400 `invalid_accept_datetime` for anything else. */
export function parseAcceptDatetime(value: string): number {
  const ms = IMF_FIXDATE.test(value.trim()) ? Date.parse(value) : NaN
  if (Number.isNaN(ms) || new Date(ms).toUTCString() !== value.trim()) {
    throw new HttpError(400, 'invalid_accept_datetime', 'Accept-Datetime must be an HTTP-date such as "Tue, 20 Jun 2000 18:02:59 GMT"')
  }
  return ms
}

/** The request URL names a memento or a TimeMap (whatever its method). */
export function namesThePast(url: string): boolean {
  const q = url.indexOf('?')
  if (q < 0) return false
  const query = new URLSearchParams(url.slice(q + 1).split('#', 1)[0])
  return query.get('ext') === 'timemap' || query.has('version')
}

/** The past a request asks for, from its query (`ext=timemap`, `version=`) or its Accept-Datetime; undefined for the present. */
export function pastAskOf(request: Request): PastAsk | undefined {
  const q = request.url.indexOf('?')
  if (q >= 0 && namesThePast(request.url)) {
    const query = new URLSearchParams(request.url.slice(q + 1).split('#', 1)[0])
    if (query.get('ext') === 'timemap') return { kind: 'timemap' }
    const version = query.get('version')
    // A malformed id names no memento: the layer answers 404 after deciding access, as for any unknown one.
    if (version !== null) return { kind: 'memento', from: /^\d{1,15}$/.test(version) ? Number(version) : -1 }
  }
  const acceptDatetime = request.headers.get('accept-datetime')
  // An HTTP-date has a second's precision: the state current at the end of that second is the one asked for.
  if (acceptDatetime !== null) return { kind: 'at', at: parseAcceptDatetime(acceptDatetime) + 999 }
  return undefined
}

/** A present answer of a resource that is its own TimeGate (RFC 7089 §4.1.1): its TimeMap and the negotiation it varies on. */
export function withTimeGate(headers: Headers, url: string): void {
  headers.append('link', mementoLinks(url))
  headers.set('vary', `${headers.get('vary') ?? ''}, Accept-Datetime`.replace(/^, /, ''))
}

/** Answers a GET or HEAD of the past: the TimeGate's 302, the TimeMap, or a memento. Access is the layer's (Read of the URI now). */
export async function answerPast(ctx: RsContext, r: RsRequest, ask: PastAsk, head: boolean): Promise<Response> {
  const { path, url } = r.target
  const who = actingOf(r)
  const resources = ctx.deps.resources
  if (ask.kind === 'at') {
    const { from } = await resources.mementoAt(who, path, ask.at)
    // RFC 7089 §4.1.1 (Pattern 1.1): 302 to the memento, varying on Accept-Datetime.
    return new Response(null, { status: 302, headers: { location: mementoUrl(url, from), vary: 'Accept-Datetime', link: mementoLinks(url) } })
  }
  if (ask.kind === 'timemap') {
    const type = negotiate(r.request.headers.get('accept'), [LINK_FORMAT, TURTLE])
    if (type === undefined) throw new HttpError(406, 'not_acceptable', `a TimeMap is ${LINK_FORMAT} or ${TURTLE}`)
    const map = await resources.timeMap(who, path)
    const { wacAllow, publicRead } = map
    // Streamed as the versions' keys are read: a TimeMap of 10,000 mementos starts answering at once.
    const body = head ? null : textStream(type === TURTLE ? timeMapTurtle(url, map) : timeMapLinkFormat(url, map))
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': type === TURTLE ? `${TURTLE}; charset=utf-8` : LINK_FORMAT,
        'wac-allow': wacAllow,
        vary: 'Accept, Authorization, Origin',
        'cache-control': publicRead ? 'no-cache' : 'private, no-cache',
        link: `<${url}>; rel="original timegate"`,
      },
    })
  }
  const memento = await resources.readMemento(who, path, ask.from)
  // RFC 7089 §2.1.2, §4.1.2: a memento names its datetime and its original; it is not changed, so it takes no write.
  const headers = new Headers({
    'memento-datetime': httpDate(memento.from),
    link: mementoLinks(url),
    allow: 'OPTIONS, HEAD, GET',
    vary: 'Accept, Authorization, Origin',
    'wac-allow': memento.wacAllow,
    'cache-control': memento.publicRead ? 'no-cache' : 'private, no-cache',
  })
  return resources.representMemento(path, memento, {
    accept: r.request.headers.get('accept'),
    requestUrl: r.request.url,
    requestHeaders: r.request.headers,
    head,
    headers,
  })
}

/** RFC 7089 §5.1.1: the TimeMap in link-format (RFC 6690), mementos oldest first; its bounds come before the list. */
async function* timeMapLinkFormat(url: string, map: TimeMap): AsyncIterable<string> {
  yield `<${url}>; rel="original timegate",\n`
  yield `<${timeMapUrl(url)}>; rel="self"; type="${LINK_FORMAT}"; from="${httpDate(map.first)}"; until="${httpDate(map.last)}"`
  // One memento behind: the last is known to be last (rel="last") only once the list ends.
  let held: number | undefined
  let first = true
  const line = (from: number, last: boolean) => {
    const rel = [first ? 'first' : '', last ? 'last' : '', 'memento'].filter(Boolean).join(' ')
    first = false
    return `,\n<${mementoUrl(url, from)}>; rel="${rel}"; datetime="${httpDate(from)}"`
  }
  for await (const { from } of map.mementos) {
    if (held !== undefined) yield line(held, false)
    held = from
  }
  if (held !== undefined) yield line(held, true)
  yield '\n'
}

/** The TimeMap for Solid clients, in the Memento ontology (http://mementoweb.org/ns#). */
async function* timeMapTurtle(url: string, map: TimeMap): AsyncIterable<string> {
  yield `@prefix mem: <http://mementoweb.org/ns#>.\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#>.\n\n<${timeMapUrl(url)}> a mem:TimeMap; mem:original <${url}>; mem:timegate <${url}>.\n`
  for await (const m of map.mementos) {
    yield `<${timeMapUrl(url)}> mem:memento <${mementoUrl(url, m.from)}>.\n` +
      `<${mementoUrl(url, m.from)}> a mem:Memento; mem:original <${url}>; mem:mementoDatetime "${new Date(m.from).toISOString()}"^^xsd:dateTime.\n`
  }
}

// Pieces gathered to about this many characters per chunk: one chunk a line would cost a write each.
const CHUNK_CHARS = 16 * 1024

/** Text pieces as a body: the first piece sent at once (the first byte), the rest in chunks; the source closed on a cancel. */
function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = ''
      while (text.length < CHUNK_CHARS) {
        const next = await it.next()
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text))
          controller.close()
          return
        }
        text += next.value
        if (!started) break
      }
      started = true
      controller.enqueue(encoder.encode(text))
    },
    async cancel() {
      await it.return?.()
    },
  })
}
