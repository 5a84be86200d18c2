// The header fields of resumable uploads (IETF draft-ietf-httpbis-resumable-upload): read and written as Structured Fields (RFC 9651).

import { parseItem, serializeDictionary } from 'structured-headers'
import { HttpError } from '../http/errors.ts'

/**
 * Draft Version Identification: the interop versions this pod speaks. 6 is drafts -04 and -05 (what
 * tus-js-client 4 sends as `ietf-draft-05`), 7 drafts -06 to -08, 8 drafts -09 and later. They differ for
 * a server only in the name of the lifetime limit (`expires` before 7, `max-age` since).
 */
export const INTEROP_VERSIONS: readonly number[] = [6, 7, 8]

/** §10: the media type of an append's content. */
export const PARTIAL_UPLOAD = 'application/partial-upload'

/** §14 problem types (RFC 9457), by the pod's error code. */
export const PROBLEM_TYPES = {
  mismatching_upload_offset: 'https://iana.org/assignments/http-problem-types#mismatching-upload-offset',
  completed_upload: 'https://iana.org/assignments/http-problem-types#completed-upload',
  inconsistent_upload_length: 'https://iana.org/assignments/http-problem-types#inconsistent-upload-length',
} as const

function item(headers: Headers, name: string): unknown {
  const value = headers.get(name)
  if (value === null) return undefined
  try {
    return parseItem(value)[0]
  } catch {
    return undefined
  }
}

/** The request's interop version when the pod speaks it; a request without one is an ordinary upload. */
export function interopVersionOf(headers: Headers): number | undefined {
  const v = item(headers, 'upload-draft-interop-version')
  return typeof v === 'number' && INTEROP_VERSIONS.includes(v) ? v : undefined
}

/** §4.1.2 Upload-Complete: a Boolean; any other value makes the field ignored. */
export function uploadCompleteOf(headers: Headers): boolean | undefined {
  const v = item(headers, 'upload-complete')
  return typeof v === 'boolean' ? v : undefined
}

/**
 * §4.1.1 Upload-Offset, §4.1.3 Upload-Length: an Item whose value MUST be a non-negative Integer (RFC 9651
 * §3.3.1: at most 15 digits, no sign, no fraction). Absent is undefined; any other value (`-1`, `+5`, `1.0`,
 * empty, 16 digits) is 400 `invalid_request`: taking `-1` for "no length" would let an upload run unbounded
 * where its client meant something else (tus 1.0.0 likewise: Upload-Length MUST be a non-negative integer).
 */
export function byteCountOf(headers: Headers, name: 'upload-offset' | 'upload-length'): number | undefined {
  const raw = headers.get(name)
  if (raw === null) return undefined
  const v = item(headers, name)
  const bare = raw.split(';', 1)[0]!.trim()
  if (typeof v === 'number' && /^\d{1,15}$/.test(bare)) return v
  const field = name === 'upload-offset' ? 'Upload-Offset' : 'Upload-Length'
  throw new HttpError(400, 'invalid_request', `${field} must be a non-negative integer of at most 15 digits; got ${JSON.stringify(raw.slice(0, 40))}`)
}

/** §4.1.4 Upload-Limit: the size cap, when the pod has one, and the seconds left before the upload expires. */
export function uploadLimit(version: number, limits: { maxSize?: number; secondsLeft: number }): string {
  const dict: Record<string, number> = {}
  if (limits.maxSize !== undefined) dict['max-size'] = limits.maxSize
  dict[version < 7 ? 'expires' : 'max-age'] = Math.max(0, Math.floor(limits.secondsLeft))
  return serializeDictionary(dict)
}

/** The state fields every answer about an upload carries (§4.2.2 lists them for HEAD; interop 6 wanted the offset on appends too). */
export function uploadState(o: { offset: number; complete: boolean; length?: number; limit?: string }): Record<string, string> {
  return {
    'upload-offset': String(o.offset),
    'upload-complete': o.complete ? '?1' : '?0',
    ...(o.length === undefined ? {} : { 'upload-length': String(o.length) }),
    ...(o.limit === undefined ? {} : { 'upload-limit': o.limit }),
    'cache-control': 'no-store',
  }
}
