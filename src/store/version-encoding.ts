// How a version record is stored: its fields as JSON, its statements front-coded as raw text after them.

import type { PackedGraph, VersionRecord } from './version-record.ts'

/**
 * A version of an RDF document holds its statements as quadstore's keys (version-record.ts PackedGraph). As JSON
 * they cost twice their size: every key repeats the subject and most of the predicate of the one before it (the
 * keys are sorted), and each of the many NUL separators in them becomes `\u0000`. Stored here instead as the
 * record's other fields in JSON, a newline (JSON.stringify never writes a raw one), then the prefix and each key
 * as "characters shared with the key before, the rest", lengths in decimal: a 1 KB note's version went from
 * 3,396 bytes to about 1,700 (docs/versions.md, "The cost of a version"). A record without a newline is read as JSON:
 * records written before this encoding, and versions of files (no statements), which are JSON as they were.
 */
export const versionRecordEncoding = {
  name: 'solopod-version-record',
  format: 'utf8' as const,
  encode(record: VersionRecord): string {
    const { graph, ...fields } = record
    const head = JSON.stringify(fields)
    return graph === undefined ? head : `${head}\n${encodeGraph(graph)}`
  },
  decode(text: string): VersionRecord {
    const cut = text.indexOf('\n')
    if (cut === -1) return JSON.parse(text) as VersionRecord
    return { ...(JSON.parse(text.slice(0, cut)) as VersionRecord), graph: decodeGraph(text, cut + 1) }
  },
}

const field = (text: string) => `${text.length},${text}`

function encodeGraph(graph: PackedGraph): string {
  const parts = [field(graph.prefix)]
  let before = ''
  for (const key of graph.rest) {
    let shared = 0
    const most = Math.min(before.length, key.length)
    while (shared < most && before.charCodeAt(shared) === key.charCodeAt(shared)) shared++
    parts.push(`${shared},`, field(key.slice(shared)))
    before = key
  }
  return parts.join('')
}

function decodeGraph(text: string, from: number): PackedGraph {
  let at = from
  const number = () => {
    const comma = text.indexOf(',', at)
    const n = Number(text.slice(at, comma))
    if (comma === -1 || !Number.isInteger(n)) throw new Error(`a version record's statements are malformed at ${at}`)
    at = comma + 1
    return n
  }
  const chars = () => {
    const n = number()
    if (at + n > text.length) throw new Error(`a version record's statements are cut short at ${at}`)
    const out = text.slice(at, at + n)
    at += n
    return out
  }
  const prefix = chars()
  const rest: string[] = []
  let before = ''
  while (at < text.length) {
    const shared = number()
    before = before.slice(0, shared) + chars()
    rest.push(before)
  }
  return { prefix, rest }
}
