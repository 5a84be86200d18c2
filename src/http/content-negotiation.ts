// Proactive content negotiation on the Accept header (RFC 9110 §12.5.1).

interface MediaRange {
  type: string
  subtype: string
  q: number
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i
// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** Split on `sep` outside quoted strings: a quoted parameter value may hold `,` or `;`. */
function splitOutsideQuotes(value: string, sep: string): string[] {
  const parts: string[] = []
  let start = 0
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const c = value[i]
    if (c === '\\' && quoted) i++
    else if (c === '"') quoted = !quoted
    else if (c === sep && !quoted) {
      parts.push(value.slice(start, i))
      start = i + 1
    }
  }
  parts.push(value.slice(start))
  return parts
}

/** The well-formed media ranges of an Accept value; malformed members are skipped, not fatal. */
function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (const member of splitOutsideQuotes(accept, ',')) {
    const [range = '', ...params] = splitOutsideQuotes(member, ';').map(s => s.trim())
    const [type = '', subtype = '', extra] = range.toLowerCase().split('/')
    if (extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue
    if (type === '*' && subtype !== '*') continue // `*/json` is not a media range
    const q = qualityParam(params)
    if (q !== undefined) ranges.push({ type, subtype, q })
  }
  return ranges
}

/**
 * The weight of a range: `q` (default 1); `undefined` for a malformed q so the member is dropped.
 * Other parameters (`charset`, JSON-LD `profile`) do not narrow the match: we serve one form per
 * type, and refusing a client over a profile it merely prefers would turn a usable answer into 406.
 */
function qualityParam(params: string[]): number | undefined {
  for (const param of params) {
    const eq = param.indexOf('=')
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue
    const value = param.slice(eq + 1).trim()
    return QVALUE.test(value) ? Number(value) : undefined
  }
  return 1
}

/** RFC 9110 §12.5.1: the most specific range that matches an offer decides its weight. */
function qualityOf(offer: string, ranges: readonly MediaRange[]): number {
  const [type = '', subtype = ''] = (offer.split(';', 1)[0] ?? '').trim().toLowerCase().split('/')
  let best = -1
  let q = 0
  for (const range of ranges) {
    const specificity = range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : range.type === '*' ? 0 : -1
    if (specificity < 0) continue
    if (specificity > best || (specificity === best && range.q > q)) {
      best = specificity
      q = range.q
    }
  }
  return q
}

/**
 * The offer the client prefers, or `undefined` when none is acceptable (the caller answers 406).
 * Ties go to the earlier offer; `q=0` excludes. No Accept header, or one with no well-formed
 * member, means any type is acceptable (RFC 9110 §12.5.1), so the first offer wins.
 */
export function negotiate(accept: string | null, offers: readonly string[]): string | undefined {
  const ranges = accept === null ? [] : parseAccept(accept)
  if (ranges.length === 0) return offers[0]
  let chosen: string | undefined
  let chosenQ = 0
  for (const offer of offers) {
    const q = qualityOf(offer, ranges)
    if (q > chosenQ) {
      chosen = offer
      chosenQ = q
    }
  }
  return chosen
}

/** Whether Accept names `type` itself (not through a wildcard) with a weight above 0. */
export function namesType(accept: string | null, type: string): boolean {
  if (accept === null || !accept.toLowerCase().includes(type)) return false
  const [t, s] = type.split('/')
  return parseAccept(accept).some(r => r.type === t && r.subtype === s && r.q > 0)
}
