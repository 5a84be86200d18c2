// RFC 9110 §14: which bytes of a file a GET with Range (and If-Range) asks for (pure).

/** Inclusive byte positions, as Content-Range writes them. */
export interface ByteRange {
  readonly first: number
  readonly last: number
}

export type RangeAnswer = { readonly kind: 'whole' } | { readonly kind: 'partial'; readonly range: ByteRange } | { readonly kind: 'unsatisfiable' }

const WHOLE: RangeAnswer = { kind: 'whole' }
const SPEC = /^(\d*)-(\d*)$/

/**
 * The answer to `Range` on a representation of `size` bytes whose strong ETag is `etag`.
 * - No Range, another unit, or a header that does not parse: the whole representation (§14.2 lets a
 *   server ignore what it does not understand).
 * - `If-Range` (§13.1.5) that is not exactly this strong ETag: the whole representation. A date there is
 *   never taken as a match: Last-Modified has one-second resolution, so it is not a strong validator.
 * - One range: that range, clipped to the file; 416 when it starts past the end (or is an empty suffix).
 * - Several ranges: the whole representation, with 200 — a client asking for several pieces (rare, and a
 *   multipart/byteranges body is more than most can read) gets every byte in one plain answer.
 */
export function rangeOf(range: string | null, ifRange: string | null, size: number, etag: string): RangeAnswer {
  if (range === null) return WHOLE
  if (ifRange !== null && ifRange.trim() !== etag) return WHOLE
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(range)
  if (!m) return WHOLE
  const specs = m[1]!
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '')
  if (specs.length !== 1) return WHOLE
  const parts = SPEC.exec(specs[0]!)
  if (!parts || (parts[1] === '' && parts[2] === '')) return WHOLE
  const [, a, b] = parts as unknown as [string, string, string]
  if (a === '') {
    // suffix: the last N bytes (§14.1.2)
    const n = Number(b)
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'partial', range: { first: Math.max(0, size - n), last: size - 1 } }
  }
  const first = Number(a)
  const last = b === '' ? size - 1 : Number(b)
  // Numbers past 2^53 lose precision but not order: a huge first is past the end, a huge last is clipped.
  if (b !== '' && last < first) return WHOLE
  if (first >= size) return { kind: 'unsatisfiable' }
  return { kind: 'partial', range: { first, last: Math.min(last, size - 1) } }
}
