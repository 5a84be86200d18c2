// The request target as a stored path: decoded, checked and re-encoded in one canonical form.

import { HttpError } from '../http/errors.ts'

export interface Target {
  /** Canonical percent-encoded path, e.g. `/notes/a%20b.ttl`; the store key. */
  readonly path: string
  /** baseUrl + path: the resource IRI and the graph name. */
  readonly url: string
}

const badPath = (why: string) => new HttpError(400, 'invalid_path', `the request path is not allowed: ${why}`)

// Keep RFC 3986 sub-delims and ':' '@' readable; encode everything else the same way every time.
export const encodeSegment = (s: string) => encodeURIComponent(s).replace(/%(2[146-9ABC]|3[ABD]|40)/gi, m => decodeURIComponent(m))

/**
 * Segments of characters that encodeSegment leaves as they are (unreserved, sub-delims, ':' '@'), none of
 * them `.` or `..`, no empty segment but a trailing one: such a path is its own canonical form.
 */
const CANONICAL_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)*\/?$/

/**
 * Solid paths map one-to-one to stored keys, so anything that could name the same resource
 * twice or escape the pod (dot segments, encoded slashes, NUL, backslashes) is refused.
 */
export function resolveTarget(baseUrl: string, rawUrl: string): Target {
  const afterOrigin = rawUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
  const rawPath = afterOrigin.split(/[?#]/, 1)[0] || '/'
  // Most paths are already canonical: nothing to decode, no dot or empty segment.
  if (CANONICAL_PATH.test(rawPath) && rawPath.length <= 2048) return { path: rawPath, url: baseUrl + rawPath }
  if (!rawPath.startsWith('/')) throw badPath('it must start with /')
  if (rawPath.length > 2048) throw badPath('it is longer than 2048 characters')
  const segments = rawPath.slice(1).split('/')
  const out: string[] = []
  for (const [i, raw] of segments.entries()) {
    let seg: string
    try {
      seg = decodeURIComponent(raw)
    } catch {
      throw badPath('it contains malformed percent-encoding')
    }
    const last = i === segments.length - 1
    if (seg === '' && !last) throw badPath('it contains an empty segment (//)')
    if (seg === '.' || seg === '..') throw badPath('dot segments (. and ..) are not allowed')
    if (seg.includes('/')) throw badPath('encoded slashes (%2F) are not allowed')
    if (seg.includes('\\')) throw badPath('backslashes are not allowed')
    if (/[\u0000-\u001f\u007f]/.test(seg)) throw badPath('control characters (such as NUL) are not allowed')
    out.push(encodeSegment(seg))
  }
  const path = `/${out.join('/')}`
  return { path, url: baseUrl + path }
}

/**
 * A pod path a page or the owner API was given (a query or a form, not a request target): absolute, in the
 * canonical form resources are keyed by, so `/a%20b/` and `/a b/` name one folder. 400 `invalid_path` otherwise.
 */
export function podPathOf(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/'))
    throw new HttpError(400, 'invalid_path', 'path must be a pod path starting with "/", like /notes/ or /notes/todo.ttl')
  return resolveTarget('', raw).path
}
