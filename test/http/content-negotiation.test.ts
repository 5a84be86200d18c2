import { describe, expect, test } from 'bun:test'
import { negotiate } from '../../src/http/content-negotiation.ts'
import { preferredRdfType, RDF_OFFERS } from '../../src/rdf/media-types.ts'

const TTL = 'text/turtle'
const JSONLD = 'application/ld+json'
const NT = 'application/n-triples'
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const CHROME = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'

describe('RFC 9110 §12.5.1 Accept', () => {
  test('a request without Accept accepts any type: the first offer wins', () => {
    expect(negotiate(null, ['image/png', 'text/plain'])).toBe('image/png')
  })

  test('no offers means nothing to choose', () => {
    expect(negotiate('*/*', [])).toBeUndefined()
    expect(negotiate(null, [])).toBeUndefined()
  })

  test.each([
    ['higher q wins', 'text/plain;q=0.5, text/html', ['text/plain', 'text/html'], 'text/html'],
    ['q=0 excludes an exact type', 'text/plain;q=0, */*', ['text/plain', 'text/html'], 'text/html'],
    ['q=0 on the only match leaves nothing', 'text/plain;q=0', ['text/plain'], undefined],
    ['the most specific range decides, not the highest q', 'text/*;q=1, text/plain;q=0.1', ['text/plain', 'text/html'], 'text/html'],
    ['type/* matches within the type', 'image/*', ['text/plain', 'image/png'], 'image/png'],
    ['*/* matches anything', '*/*;q=0.1', ['image/png'], 'image/png'],
    ['equal q: the order of offers breaks the tie', 'text/html;q=0.5, text/plain;q=0.5', ['text/plain', 'text/html'], 'text/plain'],
    ['type and subtype compare case-insensitively', 'TEXT/Plain', ['text/plain'], 'text/plain'],
    ['offers with parameters match on the bare type', 'text/plain', ['text/plain; charset=utf-8'], 'text/plain; charset=utf-8'],
    ['a quoted comma does not split members', 'a/b;p="x,text/plain";q=0.9, c/d;q=0.1', ['text/plain', 'c/d'], 'c/d'],
    ['a malformed q drops that member only', 'text/plain;q=2, text/html;q=0.1', ['text/plain', 'text/html'], 'text/html'],
    ['*/subtype is not a media range', '*/plain, text/html;q=0.2', ['text/plain', 'text/html'], 'text/html'],
    ['nothing acceptable gives undefined', 'image/png', ['text/plain'], undefined],
    ['an Accept with no well-formed member is treated as absent', 'garbage, ;;', ['text/plain'], 'text/plain'],
    ['an empty Accept is treated as absent', '', ['text/plain'], 'text/plain'],
  ] as const)('%s', (_rule, accept, offers, expected) => {
    expect(negotiate(accept, offers)).toBe(expected)
  })
})

describe('RDF representations (Solid Protocol §5.3: Turtle and JSON-LD MUST)', () => {
  test('offers Turtle, JSON-LD and N-Triples, Turtle first', () => {
    expect(RDF_OFFERS).toEqual([TTL, JSONLD, NT])
  })

  test.each([
    ['no Accept gives Turtle', null, TTL],
    ['*/* gives Turtle', '*/*', TTL],
    ['text/* gives Turtle', 'text/*', TTL],
    ['application/* gives JSON-LD before N-Triples', 'application/*', JSONLD],
    ['JSON-LD when asked', JSONLD, JSONLD],
    ['N-Triples when asked', NT, NT],
    ['JSON-LD preferred by q over Turtle', 'text/turtle;q=0.5, application/ld+json', JSONLD],
    ['Turtle refused by q=0 falls to JSON-LD via */*', 'text/turtle;q=0, */*;q=0.1', JSONLD],
    ['a JSON-LD profile parameter still gets JSON-LD', 'application/ld+json;profile="http://www.w3.org/ns/json-ld#compacted"', JSONLD],
    ['JSON-LD ranked above Turtle at q=0.9', 'application/ld+json, text/turtle;q=0.9', JSONLD],
    ['Firefox navigation gets Turtle through */*;q=0.8', FIREFOX, TTL],
    ['Chrome navigation gets Turtle through */*;q=0.8', CHROME, TTL],
    ['text/html alone falls back to Turtle', 'text/html', TTL],
    ['text/html and xhtml without wildcard fall back to Turtle', 'text/html,application/xhtml+xml', TTL],
  ] as const)('%s', (_rule, accept, expected) => {
    expect(preferredRdfType(accept)).toBe(expected)
  })

  test.each([
    ['an image type', 'image/png'],
    ['plain JSON', 'application/json'],
    ['text/html refused by q=0', 'text/html;q=0'],
    ['every RDF type refused', 'text/turtle;q=0, application/ld+json;q=0, application/n-triples;q=0'],
    ['RDF/XML', 'application/rdf+xml'],
  ])('nothing acceptable (caller answers 406): %s', (_rule, accept) => {
    expect(preferredRdfType(accept)).toBeUndefined()
  })
})
