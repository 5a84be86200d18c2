// Issue 9 "Reads": a Turtle document comes back with the prefixes it was written with, and no unused ones.

import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import { openPod, type Pod } from './pod-fixture.ts'
import { DOC_1K } from '../bench/documents.ts'

let pod: Pod
beforeEach(async () => {
  pod = await openPod({ publicWrite: ['/d/'] })
})
afterEach(async () => {
  await pod.close()
})

const put = (path: string, body: string) => pod.request(path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
const getTurtle = async (path: string) => (await pod.request(path, { headers: { accept: 'text/turtle' } })).text()
const prefixLines = (ttl: string) => ttl.split('\n').filter(l => l.startsWith('@prefix'))
const sameGraph = (a: string, b: string, base: string) => {
  const canon = (t: string) =>
    new Parser({ baseIRI: base })
      .parse(t)
      .map(q => `${q.subject.value} ${q.predicate.value} ${q.object.value}`)
      .sort()
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b))
}

describe('document prefixes', () => {
  test('a document is served with its own prefix names, not the standard ones for the same namespace', async () => {
    expect((await put('/d/note', DOC_1K)).status).toBe(201)
    const text = await getTurtle('/d/note')
    expect(prefixLines(text)).toEqual(['@prefix dc: <http://purl.org/dc/terms/>.', '@prefix ex: <http://example.org/ns#>.'])
    expect(text).toContain('dc:title "bench"')
    expect(text).not.toContain('dcterms:')
    expect(sameGraph(text, DOC_1K, `${pod.base}/d/note`)).toBe(true)
    // Roughly the size it was written in (before: 1,626 bytes for this 1,061-byte kind of document).
    expect(new TextEncoder().encode(text).byteLength).toBeLessThan(DOC_1K.length * 1.15)
  })

  test('no prefix is declared that the text does not use: xsd for plain numbers and strings, prefixes of relative IRIs', async () => {
    const doc = `@prefix ex: <http://example.org/ns#>.
@prefix unused: <http://unused.example/>.
@prefix : <#>.
:it ex:n 5; ex:d 1.5; ex:b true; ex:s "text"; ex:l "mot"@fr.`
    expect((await put('/d/numbers', doc)).status).toBe(201)
    const text = await getTurtle('/d/numbers')
    expect(prefixLines(text)).toEqual(['@prefix ex: <http://example.org/ns#>.'])
    expect(text).toContain('ex:n 5')
    expect(sameGraph(text, doc, `${pod.base}/d/numbers`)).toBe(true)
  })

  test('xsd is declared when a datatype is written out', async () => {
    const doc = '@prefix x: <http://www.w3.org/2001/XMLSchema#>.\n<#it> <http://example.org/when> "2026-11-25"^^x:date.'
    expect((await put('/d/dated', doc)).status).toBe(201)
    const text = await getTurtle('/d/dated')
    expect(prefixLines(text)).toEqual(['@prefix x: <http://www.w3.org/2001/XMLSchema#>.'])
    expect(text).toContain('"2026-11-25"^^x:date')
  })

  test('a PATCH keeps the prefixes the document was written with', async () => {
    expect((await put('/d/patched', '@prefix f: <http://xmlns.com/foaf/0.1/>.\n<#me> f:name "A".')).status).toBe(201)
    const res = await pod.request('/d/patched', {
      method: 'PATCH',
      headers: { 'content-type': 'application/sparql-update' },
      body: 'INSERT DATA { <#me> <http://xmlns.com/foaf/0.1/nick> "a" }',
    })
    expect(res.status).toBe(204)
    const text = await getTurtle('/d/patched')
    expect(prefixLines(text)).toEqual(['@prefix f: <http://xmlns.com/foaf/0.1/>.'])
    expect(text).toContain('f:nick "a"')
  })

  test('stat:size in the listing is the byte length a GET serves', async () => {
    await put('/d/note', DOC_1K)
    const served = new TextEncoder().encode(await getTurtle('/d/note')).byteLength
    const listing = await getTurtle('/d/')
    expect(listing).toContain(`stat:size ${served}.`)
  })

  test('an IRI written as `<acl:Read>` (the scheme acl, not the ACL term) reads back as the IRI stored', async () => {
    // n3 writes such an IRI as it is, which under `@prefix acl:` would read as acl:Read, a mode this document does not name
    const doc = '@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n<#a> acl:mode <acl:Read>; <foaf:name> "x"; acl:agent <#me>.'
    expect((await put('/d/typo', doc)).status).toBe(201)
    const text = await getTurtle('/d/typo')
    expect(text).toContain('acl:mode <acl:Read>')
    expect(text).toContain('<foaf:name> "x"')
    expect(prefixLines(text)).toEqual(['@prefix acl: <http://www.w3.org/ns/auth/acl#>.'])
    expect(sameGraph(text, doc, `${pod.base}/d/typo`)).toBe(true)
    expect(await getTurtle('/d/')).toContain(`stat:size ${new TextEncoder().encode(text).byteLength}.`)
  })
})
