// The WebDAV If header (RFC 4918 §10.4): lists of state tokens (lock tokens) and entity tags, each list for the
// request's resource or for one it names. Parsed here, pure; judged by the lock table (lock-table.ts).

import { HttpError } from '../http/errors.ts'

/** One condition of a list: a lock token (a Coded-URL) or an entity tag, maybe negated. */
export type IfCondition = { readonly not: boolean; readonly token: string } | { readonly not: boolean; readonly etag: string }

/** A list, for the resource `tag` names (an absolute URL or path as sent), or for the request's resource when none. */
export interface IfList {
  readonly tag?: string
  readonly conditions: readonly IfCondition[]
}

const malformed = (why: string) => new HttpError(400, 'invalid_syntax', `the If header is malformed (${why}); see RFC 4918 §10.4`)

/** RFC 4918 §10.4.2: `( 1*No-tag-list | 1*Tagged-list )`, whitespace between the parts. */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = []
  let pos = 0
  let tagged: boolean | undefined
  let tag: string | undefined
  const skip = () => {
    while (pos < header.length && /\s/.test(header[pos]!)) pos++
  }
  const until = (end: string) => {
    const close = header.indexOf(end, pos)
    if (close < 0) throw malformed(`a "${end}" is missing`)
    const text = header.slice(pos, close)
    pos = close + 1
    return text
  }
  skip()
  if (pos === header.length) throw malformed('it is empty')
  while (pos < header.length) {
    if (header[pos] === '<') {
      // Resource-Tag: every list after it is for that resource, until the next tag
      if (tagged === false) throw malformed('a resource tag after an untagged list')
      tagged = true
      pos++
      tag = until('>')
      skip()
      if (header[pos] !== '(') throw malformed('a resource tag must be followed by a list')
      continue
    }
    if (header[pos] !== '(') throw malformed(`unexpected "${header[pos]}"`)
    if (tagged === undefined) tagged = false
    pos++
    const conditions: IfCondition[] = []
    for (;;) {
      skip()
      if (header[pos] === ')') {
        pos++
        break
      }
      let not = false
      if (header.slice(pos, pos + 3).toLowerCase() === 'not') {
        not = true
        pos += 3
        skip()
      }
      if (header[pos] === '<') {
        pos++
        conditions.push({ not, token: until('>') })
      } else if (header[pos] === '[') {
        pos++
        conditions.push({ not, etag: until(']') })
      } else throw malformed('a list holds <state-token> or [entity-tag] conditions')
    }
    if (conditions.length === 0) throw malformed('a list is empty')
    lists.push(tag === undefined ? { conditions } : { tag, conditions })
    skip()
  }
  return lists
}

/** Every lock token the header names, negated or not: RFC 4918 §10.4.1, the tokens the request submits. */
export const submittedTokens = (lists: readonly IfList[]): Set<string> =>
  new Set(lists.flatMap(l => l.conditions.flatMap(c => ('token' in c ? [c.token] : []))))

/** The request's If header, parsed, for the layer to judge (lock-table.ts `SubmittedLocks`); 400 when malformed, which says nothing of the resource. */
export const submittedLocksOf = (headers: Headers): { ifLists?: IfList[] } => {
  const header = headers.get('if')
  return header === null ? {} : { ifLists: parseIfHeader(header) }
}
