// Shared checks for resource-server tests: error answers, whole-store snapshots, RDF bodies.

import { expect } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import type { Store } from '../../src/store/open-store.ts'

export const LDP = (l: string) => `http://www.w3.org/ns/ldp#${l}`
export const STAT = (l: string) => `http://www.w3.org/ns/posix/stat#${l}`
export const DCTERMS = (l: string) => `http://purl.org/dc/terms/${l}`
export const EX = (l: string) => `http://example.org/ns#${l}`
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'

/** A write with a Turtle body. */
export const withTurtle = (method: string, body: string, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'text/turtle', ...headers },
  body,
})

/** A write with an explicit media type (bytes, so fetch adds no Content-Type of its own). */
export const withBody = (method: string, contentType: string | undefined, body: string | Uint8Array, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
  body: (typeof body === 'string' ? new TextEncoder().encode(body) : body) as Uint8Array<ArrayBuffer>,
})

/**
 * RS errors are plain text `code: description`; on the OP/AS paths (/.oidc, /.uma …) they are OAuth
 * JSON `{ error }` (render-error.ts). Checks status and code; returns the body for further checks.
 */
export async function expectRsError(res: Response, status: number, code: string): Promise<string> {
  const text = await res.text()
  const json = res.headers.get('content-type')?.startsWith('application/json')
  const found = json ? (JSON.parse(text) as { error?: string }).error : text.split(':', 1)[0]
  expect({ status: res.status, code: found }).toEqual({ status, code })
  return text
}

export async function expectStatus(res: Response | Promise<Response>, status: number): Promise<Response> {
  const r = await res
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${await r.text()}`)
  return r
}

/** Everything the pod keeps about resources: metadata, bodies, membership and quads, as one comparable string. */
export async function snapshotStore(store: Store): Promise<string> {
  const out: string[] = []
  for await (const [k, v] of store.meta.iterator()) out.push(`meta ${k} ${JSON.stringify(v)}`)
  for await (const [k, v] of store.blobRefs.iterator()) out.push(`blob ${k} ${v} ${Buffer.from(await store.blobs.read(k).arrayBuffer()).toString('hex')}`)
  for await (const k of store.contains.keys()) out.push(`contains ${JSON.stringify(k)}`)
  const quads = (await store.quads.get({})).items.map(q => `quad ${q.subject.value} ${q.predicate.value} ${q.object.value} ${q.graph.value}`)
  return [...out, ...quads.sort()].join('\n')
}

export function parseTurtle(text: string, base: string): Quad[] {
  return new Parser({ baseIRI: base }).parse(text) as Quad[]
}

/** Triples of a GET answer (Turtle), relative IRIs resolved against the request URL. */
export async function triplesOf(res: Response, url: string): Promise<Quad[]> {
  expect(res.headers.get('content-type')).toStartWith('text/turtle')
  return parseTurtle(await res.text(), url)
}

export const hasTriple = (quads: readonly Quad[], s: string, p: string, o: string) =>
  quads.some(q => q.subject.value === s && q.predicate.value === p && q.object.value === o)

export const objectsOf = (quads: readonly Quad[], s: string, p: string) =>
  quads.filter(q => q.subject.value === s && q.predicate.value === p).map(q => q.object.value)

/** The `<target>; rel="…"` pairs of a Link header. */
export function linksOf(res: Response): { target: string; rel: string }[] {
  const header = res.headers.get('link') ?? ''
  return [...header.matchAll(/<([^>]*)>\s*;\s*rel="([^"]*)"/g)].map(m => ({ target: m[1]!, rel: m[2]! }))
}

export const typeLinks = (res: Response) =>
  linksOf(res)
    .filter(l => l.rel === 'type')
    .map(l => l.target)

export const randomBytes = (n: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(n))
