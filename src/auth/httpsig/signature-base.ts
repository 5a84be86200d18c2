// RFC 9421 §2: component values of a request and the signature base built from a Signature-Input member.

import {
  parseDictionary,
  parseItem,
  parseList,
  serializeDictionary,
  serializeInnerList,
  serializeItem,
  serializeList,
  type BareItem,
  type InnerList,
  type Item,
  type Parameters,
} from 'structured-headers'
import { HttpError } from '../../http/errors.ts'

/** What the base is built from. `targetUri` is the pod's configured base URL + path + query, never the Host header. */
export interface RequestFacts {
  readonly method: string
  readonly targetUri: string
  readonly headers: Headers
}

export const signatureError = (description: string, cause?: unknown) =>
  new HttpError(401, 'invalid_signature', description, cause === undefined ? {} : { cause })

// RFC 9421 §2.1.1: `;sf` re-serialises a field whose Structured Field type is known. These are the request
// fields whose RFCs define them as SF (RFC 9421 §4.1–4.3, RFC 9530 §2–4, RFC 9218 §5).
const SF_TYPES: Readonly<Record<string, 'dictionary' | 'list' | 'item'>> = {
  'signature-input': 'dictionary',
  signature: 'dictionary',
  'accept-signature': 'dictionary',
  'content-digest': 'dictionary',
  'repr-digest': 'dictionary',
  'want-content-digest': 'dictionary',
  'want-repr-digest': 'dictionary',
  priority: 'dictionary',
}

/** `"name";params` exactly as the base writes it (RFC 9421 §2.1). */
export const componentId = (item: Item) => serializeItem(item)

/**
 * RFC 9421 §2.5: the signature base for the covered components of `input` (a parsed Signature-Input
 * member), `@signature-params` last, lines joined by LF without a trailing one. Any component that
 * cannot be produced (missing field, unknown derived component, repeated identifier) is an error.
 */
export function buildSignatureBase(facts: RequestFacts, input: InnerList): string {
  const [items, params] = input
  const lines: string[] = []
  const seen = new Set<string>()
  for (const item of items) {
    if (typeof item[0] !== 'string') throw signatureError('every covered component in Signature-Input must be a string')
    const id = componentId(item)
    if (seen.has(id)) throw signatureError(`the component ${id} is covered twice`) // §2.5 step 2.1
    seen.add(id)
    if (item[0] === '@signature-params') throw signatureError('@signature-params must not be listed as a covered component')
    const value = item[0].startsWith('@') ? derivedValue(facts, item[0], item[1]) : fieldValue(facts.headers, item[0], item[1])
    lines.push(`${id}: ${value}`)
  }
  lines.push(`"@signature-params": ${serializeInnerList([items, params])}`)
  const base = lines.join('\n')
  // §2.5: the base is ASCII; anything else cannot be what the signer signed.
  if (!/^[\x20-\x7e\n]*$/.test(base)) throw signatureError('the signature base would contain non-ASCII characters')
  return base
}

// §2.2: derived components of a request. Parameters other than `name` (and only on @query-param) are errors.
function derivedValue(facts: RequestFacts, name: string, params: Parameters): string {
  if (params.has('req')) throw signatureError(`${name};req only applies to responses`)
  const url = new URL(facts.targetUri)
  const onlyParams = (allowed: string[]) => {
    for (const p of params.keys()) if (!allowed.includes(p)) throw signatureError(`the parameter ${p} does not apply to ${name}`)
  }
  if (name !== '@query-param') onlyParams([])
  switch (name) {
    case '@method':
      return facts.method // §2.2.1: as sent, case kept
    case '@target-uri':
      return facts.targetUri // §2.2.2
    case '@authority':
      return url.host // §2.2.3: lower case, default port omitted
    case '@scheme':
      return url.protocol.slice(0, -1) // §2.2.4
    case '@request-target':
      return `${url.pathname}${url.search}` // §2.2.5: origin-form
    case '@path':
      return url.pathname || '/' // §2.2.6
    case '@query':
      return url.search === '' ? '?' : url.search // §2.2.7: an empty query is "?"
    case '@query-param':
      return queryParamValue(url, params) // §2.2.8
    case '@status':
      throw signatureError('@status only applies to responses')
  }
  throw signatureError(`unknown derived component ${name}`)
}

/** §2.2.8: names and values form-decoded, then percent-encoded again (spaces as %20). */
const formEncode = (s: string) => encodeURIComponent(s).replace(/[!'()~]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

function queryParamValue(url: URL, params: Parameters): string {
  for (const p of params.keys()) if (p !== 'name') throw signatureError(`the parameter ${p} does not apply to @query-param`)
  const wanted = params.get('name')
  if (typeof wanted !== 'string') throw signatureError('@query-param needs a name="…" parameter')
  const values = [...new URLSearchParams(url.search)].filter(([n]) => formEncode(n) === wanted).map(([, v]) => formEncode(v))
  if (values.length === 0) throw signatureError(`the query has no parameter ${wanted}`)
  // §2.2.8: a repeated parameter cannot be covered by name
  if (values.length > 1) throw signatureError(`the query parameter ${wanted} is repeated, so @query-param cannot name one value`)
  return values[0]!
}

// §2.1: a field's value, or its strict SF form (`sf`), one Dictionary member (`key`), or Byte Sequences (`bs`).
function fieldValue(headers: Headers, name: string, params: Parameters): string {
  if (name !== name.toLowerCase()) throw signatureError(`the field name ${name} must be lower case`)
  for (const p of params.keys()) {
    if (p === 'req') throw signatureError(`${name};req only applies to responses`)
    if (p === 'tr') throw signatureError(`${name};tr: the pod does not read trailers`)
    if (p !== 'sf' && p !== 'key' && p !== 'bs') throw signatureError(`unknown component parameter ${p} on ${name}`)
  }
  const raw = headers.get(name)
  if (raw === null) throw signatureError(`the covered field ${name} is not in the request`)
  const value = raw.trim()
  const bs = params.get('bs') === true
  const key = params.get('key')
  if (bs && (params.has('sf') || key !== undefined)) throw signatureError(`${name}: bs cannot be combined with sf or key`) // §2.1.3
  // Fetch joins repeated field lines with ", " before we see them, so `bs` covers them as one line.
  if (bs) return serializeItem([new TextEncoder().encode(value), new Map()])
  if (key !== undefined) {
    if (typeof key !== 'string') throw signatureError(`${name};key must be a string`)
    const member = parseSf(name, value, 'dictionary').get(key)
    if (member === undefined) throw signatureError(`the field ${name} has no member ${key}`) // §2.1.2
    return Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item)
  }
  if (params.get('sf') === true) {
    const type = Object.hasOwn(SF_TYPES, name) ? SF_TYPES[name] : undefined
    if (type === undefined) throw signatureError(`${name};sf: the pod does not know the structured type of ${name}`)
    if (type === 'dictionary') return serializeDictionary(parseSf(name, value, type))
    if (type === 'list') return serializeList(parseList(value))
    return serializeItem(parseItem(value))
  }
  return value
}

function parseSf(name: string, value: string, _type: 'dictionary'): Map<string, Item | InnerList> {
  try {
    return parseDictionary(value)
  } catch (err) {
    throw signatureError(`the field ${name} is not a structured Dictionary`, err)
  }
}

export type { BareItem, InnerList }
