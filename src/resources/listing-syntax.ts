// A container listing written piece by piece in Turtle, N-Triples or JSON-LD: head, member chunks, tail.

import { DataFactory } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import type { Member } from '../store/container-members.ts'
import { isContainerPath } from '../store/paths.ts'
import { DCTERMS, LDP, PREFIXES, RDF, STAT, XSD, mediaTypeClass } from '../rdf/namespaces.ts'
import { JSON_LD, N_TRIPLES, mediaTypeOf } from '../rdf/media-types.ts'
import { serializeRdf } from '../rdf/serialize-rdf.ts'

const { namedNode, quad } = DataFactory

/**
 * The text of one listing in three parts, so a listing of any size is written a chunk of members at a
 * time and never held whole. Concatenated, the parts are one document of the syntax.
 */
export interface ListingWriter {
  /** The container's own triples (its graph) and its types; `withMembers` when member chunks follow. */
  head(withMembers: boolean): Promise<string>
  /** Solid Protocol §5.1: ldp:contains and each member's types, dcterms:modified, stat:mtime, stat:size. */
  members(chunk: readonly Member[]): string
  readonly tail: string
}

const CONTAINER_TYPES = [LDP('Container'), LDP('BasicContainer'), LDP('Resource')]

/** The triples a listing starts with: the container's own graph and its types (Solid Protocol §5.1). */
export function containerHead(url: string, own: readonly Quad[]): Quad[] {
  const self = namedNode(url)
  return [...own, ...CONTAINER_TYPES.map(t => quad(self, namedNode(RDF('type')), namedNode(t)))]
}

/** What a listing says of one member, as IRIs and lexical forms. */
interface MemberFacts {
  readonly types: readonly string[]
  readonly modified: string
  readonly mtime: string
  readonly size: string | undefined
}

function factsOf(m: Member): MemberFacts {
  const container = isContainerPath(m.path)
  return {
    types: container
      ? [LDP('Resource'), LDP('Container'), LDP('BasicContainer')]
      : [LDP('Resource'), mediaTypeClass(mediaTypeOf(m.meta.contentType) ?? 'application/octet-stream')],
    modified: new Date(m.meta.modified).toISOString(),
    mtime: String(Math.floor(m.meta.modified / 1000)),
    size: container ? undefined : String(m.meta.size),
  }
}

/**
 * Turtle §6.3 / N-Triples: IRIREF excludes controls, space and `<>"{}|^`\`; they are written as UCHAR.
 * Member paths are canonical (percent-encoded, store/target.ts) and need none; a media type may hold `^` or `|`.
 */
const iriRef = (iri: string) => `<${iri.replace(/[\u0000-\u0020<>"{}|^`\\]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}>`

export function listingWriter(mediaType: string, baseUrl: string, path: string, own: readonly Quad[], prefixes?: Record<string, string>): ListingWriter {
  const url = baseUrl + path
  switch (mediaTypeOf(mediaType)) {
    case N_TRIPLES:
      return nTriplesWriter(url, baseUrl, own)
    case JSON_LD:
      return jsonLdWriter(url, baseUrl, own)
    default:
      return turtleWriter(url, path, own, prefixes)
  }
}

/** The prefixes member statements are written with (PREFIXES' names for them). */
const LISTING_PREFIXES = ['ldp', 'dcterms', 'stat', 'xsd'].map(name => `@prefix ${name}: <${PREFIXES[name]}>.\n`)
const TURTLE_TYPE: Record<string, string> = {
  [LDP('Resource')]: 'ldp:Resource',
  [LDP('Container')]: 'ldp:Container',
  [LDP('BasicContainer')]: 'ldp:BasicContainer',
}

function turtleWriter(url: string, path: string, own: readonly Quad[], prefixes?: Record<string, string>): ListingWriter {
  /** A member relative to `@base` (the container): its last segment, `./`-led when a colon would read as a scheme (RFC 3986 §4.2). */
  const relative = (m: Member) => {
    const name = m.path.slice(path.length)
    return iriRef(name.includes(':') ? `./${name}` : name)
  }
  return {
    async head(withMembers) {
      const text = await serializeRdf(containerHead(url, own), 'text/turtle', url, prefixes)
      // The head declares only the prefixes its own text uses; member statements need these four
      // (declared again only where the document bound the name otherwise: a later @prefix wins, Turtle §6.5).
      return withMembers ? `${text}${LISTING_PREFIXES.filter(line => !text.includes(line)).join('')}\n` : text
    },
    members(chunk) {
      if (chunk.length === 0) return ''
      const names = chunk.map(relative)
      let out = `<> ldp:contains ${names.join(', ')}.\n`
      for (let i = 0; i < chunk.length; i++) {
        const f = factsOf(chunk[i]!)
        out += `${names[i]} a ${f.types.map(t => TURTLE_TYPE[t] ?? iriRef(t)).join(', ')}; dcterms:modified "${f.modified}"^^xsd:dateTime; stat:mtime ${f.mtime}`
        out += f.size === undefined ? '.\n' : `; stat:size ${f.size}.\n`
      }
      return out
    },
    tail: '',
  }
}

function nTriplesWriter(url: string, baseUrl: string, own: readonly Quad[]): ListingWriter {
  const self = iriRef(url)
  const [contains, type, modified, mtime, size] = [LDP('contains'), RDF('type'), DCTERMS('modified'), STAT('mtime'), STAT('size')].map(iriRef) as [
    string,
    string,
    string,
    string,
    string,
  ]
  const [dateTime, integer] = [iriRef(XSD('dateTime')), iriRef(XSD('integer'))]
  return {
    head: () => serializeRdf(containerHead(url, own), N_TRIPLES, url),
    members(chunk) {
      let out = ''
      for (const m of chunk) {
        const node = iriRef(baseUrl + m.path)
        const f = factsOf(m)
        out += `${self} ${contains} ${node} .\n`
        for (const t of f.types) out += `${node} ${type} ${iriRef(t)} .\n`
        out += `${node} ${modified} "${f.modified}"^^${dateTime} .\n${node} ${mtime} "${f.mtime}"^^${integer} .\n`
        if (f.size !== undefined) out += `${node} ${size} "${f.size}"^^${integer} .\n`
      }
      return out
    },
    tail: '',
  }
}

/**
 * Expanded JSON-LD (JSON-LD 1.1 §9.2: absolute IRIs, no context to fetch), written as one top-level array.
 * The container's node objects come first; each chunk adds a node object for the container holding that
 * chunk's ldp:contains, then one per member. Node objects with the same @id are merged when the document
 * is read (JSON-LD 1.1 API §7.2, node map generation), so the chunks need not be gathered first.
 */
function jsonLdWriter(url: string, baseUrl: string, own: readonly Quad[]): ListingWriter {
  const id = JSON.stringify(url)
  const value = (v: string, type: string) => `[{"@value":${JSON.stringify(v)},"@type":${JSON.stringify(type)}}]`
  const [contains, modified, mtime, size] = [LDP('contains'), DCTERMS('modified'), STAT('mtime'), STAT('size')].map(p => JSON.stringify(p))
  return {
    async head() {
      const text = (await serializeRdf(containerHead(url, own), JSON_LD, url)).trimEnd()
      // serializeRdf writes an array of node objects; a key document is compacted into one object instead.
      return text.startsWith('[') ? text.slice(0, -1).trimEnd() : `[\n${text}`
    },
    members(chunk) {
      if (chunk.length === 0) return ''
      let out = `,\n{"@id":${id},${contains}:[${chunk.map(m => `{"@id":${JSON.stringify(baseUrl + m.path)}}`).join(',')}]}`
      for (const m of chunk) {
        const f = factsOf(m)
        out += `,\n{"@id":${JSON.stringify(baseUrl + m.path)},"@type":${JSON.stringify(f.types)},${modified}:${value(f.modified, XSD('dateTime'))},${mtime}:${value(f.mtime, XSD('integer'))}`
        out += f.size === undefined ? '}' : `,${size}:${value(f.size, XSD('integer'))}}`
      }
      return out
    },
    tail: '\n]\n',
  }
}
