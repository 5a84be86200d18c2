// The worker parse is stopped when it takes too long: the request gets 503 temporarily_unavailable with
// Retry-After, the worker is replaced, and the next parse works.

import { afterEach, describe, expect, test } from 'bun:test'
import { HttpError } from '../../src/http/errors.ts'
import { PARSE_TIMEOUT_MS, parseRdfDocumentOffThread } from '../../src/rdf/parse-off-thread.ts'

const BASE = 'http://localhost:3000/doc'
const saved = { ...PARSE_TIMEOUT_MS }
afterEach(() => Object.assign(PARSE_TIMEOUT_MS, saved))

/** A Turtle document past the inline size, so it goes to the worker. */
const bigTurtle = (n: number) => Array.from({ length: n }, (_, i) => `<#s${i}> <#p> "value ${i}" .`).join('\n')

describe('a parse on the worker that takes too long', () => {
  test('is refused with 503 temporarily_unavailable and Retry-After 1, nothing parsed', async () => {
    PARSE_TIMEOUT_MS.pod = 1
    const err = await parseRdfDocumentOffThread(bigTurtle(200_000), 'text/turtle', BASE).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).status).toBe(503)
    expect((err as HttpError).code).toBe('temporarily_unavailable')
    expect((err as HttpError).headers['retry-after']).toBe('1')
  })

  test('the replaced worker parses the next document', async () => {
    const parsed = await parseRdfDocumentOffThread(bigTurtle(5_000), 'text/turtle', BASE)
    expect(parsed.triples.length).toBe(5_000)
  })
})
