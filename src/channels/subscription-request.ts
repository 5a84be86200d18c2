// A subscription request (Solid Notifications Protocol §subscription-request): the JSON-LD channel a client
// POSTs to a subscription service, checked field by field (pure: body and facts in, request or HttpError out).

import { HttpError, refusal } from '../http/errors.ts'
import type { Quad } from '@rdfjs/types'
import { Parser } from '../lib/n3.ts'
import { NOTIFY, RDF } from '../rdf/namespaces.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import { resolveTarget } from '../store/target.ts'
import { NOTIFICATION_TYPES, type NotificationType } from './notification-message.ts'
import type { ChannelFeatures, ChannelType } from './listener.ts'

export interface SubscriptionRequest {
  readonly type: ChannelType
  /** Pod path of the topic. */
  readonly topic: string
  readonly features: ChannelFeatures
  /** WebhookChannel2023: where notifications are POSTed. */
  readonly sendTo?: string
}

/** A subscription body is a few hundred bytes; anything much larger is not one. */
export const MAX_SUBSCRIPTION_BYTES = 16 * 1024

const invalid = (description: string) => refusal('invalid_subscription', description)
const SUBSCRIPTION_SERVICES_BASE = NOTIFY_PATHS.base

/** The channel type as a client may write it: the term of the notification context, prefixed, or the IRI. */
function channelTypeOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (value.startsWith(NOTIFY(''))) return value.slice(NOTIFY('').length)
  if (value.startsWith('notify:')) return value.slice('notify:'.length)
  return value
}

/**
 * xsd:duration (ISO 8601) in milliseconds: days, hours, minutes and seconds (`P1DT2H`, `PT10S`, `PT0.5S`).
 * Years and months have no fixed length, so they are refused rather than guessed.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text)
  if (!m || text === 'P' || text.endsWith('T')) return undefined
  const [, d, h, min, s] = m
  return (((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(min ?? 0)) * 60 + Number(s ?? 0)) * 1000
}

/** xsd:dateTime with a time zone, as epoch ms. */
function parseDateTime(field: string, value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    throw invalid(`${field} must be an xsd:dateTime with a time zone, e.g. "2026-12-01T09:00:00Z"`)
  }
  const at = Date.parse(value)
  if (Number.isNaN(at)) throw invalid(`${field} is not a valid date and time`)
  return at
}

/** The notification media type a channel's `accept` (an Accept header value) picks, or a 422. */
export function notificationTypeFor(accept: string | undefined): NotificationType {
  if (accept === undefined || accept.trim() === '') return NOTIFICATION_TYPES[0]
  const ranges = accept
    .split(',')
    .map(r => {
      const [type, ...params] = r.split(';').map(p => p.trim().toLowerCase())
      const q = params.find(p => p.startsWith('q='))
      return { type: type ?? '', q: q === undefined ? 1 : Number(q.slice(2)) }
    })
    .filter(r => r.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const r of ranges) {
    if (r.type === '*/*' || r.type === 'application/*' || r.type === 'application/ld+json' || r.type === 'application/json') return 'application/ld+json'
    if (r.type === 'text/*' || r.type === 'text/turtle') return 'text/turtle'
  }
  throw refusal(
    'unsupported_notification_format',
    `notifications are sent as ${NOTIFICATION_TYPES.join(' or ')}; the channel's accept ("${accept.slice(0, 100)}") names neither`,
  )
}

const FIELDS = ['topic', 'sendTo', 'state', 'startAt', 'endAt', 'rate', 'accept'] as const

/**
 * A Turtle channel request (clients built on RDF libraries send one: a node typed with the channel type and
 * its notify: fields) as the fields a JSON-LD one has.
 */
function turtleFields(body: string, baseIri: string): Record<string, unknown> {
  let quads: Quad[]
  try {
    quads = new Parser({ baseIRI: baseIri }).parse(body)
  } catch {
    throw invalid('the body is not valid Turtle')
  }
  const typed = quads.filter(q => q.predicate.value === RDF('type') && q.object.value.startsWith(NOTIFY('')))
  if (typed.length !== 1) throw invalid('the Turtle body must describe exactly one channel, typed with its channel type')
  const channel = typed[0]!.subject
  const fields: Record<string, unknown> = { type: typed[0]!.object.value }
  for (const q of quads) {
    if (!q.subject.equals(channel)) continue
    const name = FIELDS.find(f => q.predicate.value === NOTIFY(f))
    if (name) fields[name] = q.object.value
  }
  return fields
}

/** The request's fields, from JSON-LD (read as JSON with the notification context's terms) or Turtle. */
function requestFields(body: string, mediaType: string | undefined, baseIri: string): Record<string, unknown> {
  if (mediaType === 'text/turtle') return turtleFields(body, baseIri)
  if (mediaType !== 'application/ld+json' && mediaType !== 'application/json') {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'a subscription request is JSON-LD or Turtle: send it with Content-Type: application/ld+json or text/turtle',
      { headers: { 'accept-post': 'application/ld+json, text/turtle' } },
    )
  }
  let doc: unknown
  try {
    doc = JSON.parse(body)
  } catch {
    throw invalid('the body is not JSON; send a JSON-LD channel description with type and topic')
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid('the body must be one JSON-LD object with type and topic')
  return doc as Record<string, unknown>
}

export interface SubscriptionFacts {
  /** The raw body and its Content-Type. */
  readonly body: string
  readonly contentType: string | null
  /** The channel type of the service it was POSTed to. */
  readonly service: ChannelType
  readonly baseUrl: string
  readonly now: number
}

/** Checks a subscription request in the order of the protocol's fields. */
export function parseSubscriptionRequest(f: SubscriptionFacts): SubscriptionRequest {
  const mediaType = f.contentType?.split(';')[0]?.trim().toLowerCase()
  const o = requestFields(f.body, mediaType, f.baseUrl + SUBSCRIPTION_SERVICES_BASE)
  const type = channelTypeOf(o.type)
  if (type !== f.service) throw invalid(`type must be "${f.service}" at this subscription service (got ${JSON.stringify(o.type ?? null).slice(0, 100)})`)
  if (typeof o.topic !== 'string') throw invalid('topic must be the URL of a resource on this pod')
  if (!o.topic.startsWith(`${f.baseUrl}/`) || /[?#]/.test(o.topic)) {
    throw invalid(`topic must be a resource of this pod (${f.baseUrl}/…), without query or fragment`)
  }
  let topic: string
  try {
    topic = resolveTarget(f.baseUrl, o.topic).path
  } catch (err) {
    throw invalid(`topic does not name a resource: ${err instanceof HttpError ? err.description : 'its path is invalid'}`)
  }
  const state = o.state
  if (state !== undefined && typeof state !== 'string') throw invalid('state must be a string (an ETag the client holds)')
  const startAt = o.startAt === undefined ? undefined : parseDateTime('startAt', o.startAt)
  const endAt = o.endAt === undefined ? undefined : parseDateTime('endAt', o.endAt)
  if (endAt !== undefined && endAt <= f.now) throw invalid('endAt is in the past')
  if (startAt !== undefined && endAt !== undefined && endAt <= startAt) throw invalid('endAt must come after startAt')
  let rate: number | undefined
  if (o.rate !== undefined) {
    rate = typeof o.rate === 'string' ? parseDuration(o.rate) : undefined
    if (rate === undefined) throw invalid('rate must be an xsd:duration in days, hours, minutes or seconds, e.g. "PT10S"')
  }
  if (o.accept !== undefined && typeof o.accept !== 'string') throw invalid('accept must be a string, as an Accept header')
  const accept = notificationTypeFor(o.accept)
  let sendTo: string | undefined
  if (f.service === 'WebhookChannel2023') {
    if (typeof o.sendTo !== 'string' || !URL.canParse(o.sendTo) || !/^https?:$/.test(new URL(o.sendTo).protocol)) {
      throw invalid('sendTo must be the http(s) URL notifications are POSTed to')
    }
    sendTo = o.sendTo
  }
  return {
    type: f.service,
    topic,
    features: {
      accept,
      ...(state !== undefined ? { state } : {}),
      ...(startAt !== undefined ? { startAt } : {}),
      ...(endAt !== undefined ? { endAt } : {}),
      ...(rate !== undefined ? { rate } : {}),
    },
    ...(sendTo !== undefined ? { sendTo } : {}),
  }
}
