import { describe, expect, test } from 'bun:test'
import { rangeOf } from '../../src/resources/byte-ranges.ts'

const ETAG = '"abc"'
const r = (range: string | null, size = 1000, ifRange: string | null = null) => rangeOf(range, ifRange, size, ETAG)

describe('Range (RFC 9110 §14)', () => {
  test('one range: first-last, clipped to the end', () => {
    expect(r('bytes=0-99')).toEqual({ kind: 'partial', range: { first: 0, last: 99 } })
    expect(r('bytes=990-2000')).toEqual({ kind: 'partial', range: { first: 990, last: 999 } })
    expect(r('bytes=5-5')).toEqual({ kind: 'partial', range: { first: 5, last: 5 } })
    expect(r('bytes=0-99999999999999999999999')).toEqual({ kind: 'partial', range: { first: 0, last: 999 } })
  })
  test('open range and suffix range', () => {
    expect(r('bytes=900-')).toEqual({ kind: 'partial', range: { first: 900, last: 999 } })
    expect(r('bytes=-100')).toEqual({ kind: 'partial', range: { first: 900, last: 999 } })
    expect(r('bytes=-5000')).toEqual({ kind: 'partial', range: { first: 0, last: 999 } })
    expect(r('BYTES = 1-2')).toEqual({ kind: 'partial', range: { first: 1, last: 2 } })
  })
  test('unsatisfiable: starts past the end, an empty suffix, anything of an empty file', () => {
    expect(r('bytes=1000-')).toEqual({ kind: 'unsatisfiable' })
    expect(r('bytes=5000-6000')).toEqual({ kind: 'unsatisfiable' })
    expect(r('bytes=-0')).toEqual({ kind: 'unsatisfiable' })
    expect(r('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' })
    expect(r('bytes=-10', 0)).toEqual({ kind: 'unsatisfiable' })
  })
  test('what does not parse, other units and several ranges get the whole representation', () => {
    for (const h of ['bytes=10-5', 'bytes=a-b', 'bytes=-', 'items=0-10', 'bytes', 'bytes=0-1,5-9', 'bytes=1--2']) expect(r(h)).toEqual({ kind: 'whole' })
    expect(r(null)).toEqual({ kind: 'whole' })
  })
  test('If-Range: only the exact strong ETag applies the range; another ETag, a weak one or a date do not', () => {
    expect(r('bytes=0-9', 1000, '"abc"')).toEqual({ kind: 'partial', range: { first: 0, last: 9 } })
    expect(r('bytes=0-9', 1000, '"other"')).toEqual({ kind: 'whole' })
    expect(r('bytes=0-9', 1000, 'W/"abc"')).toEqual({ kind: 'whole' })
    expect(r('bytes=0-9', 1000, 'Thu, 26 Nov 2026 21:48:41 GMT')).toEqual({ kind: 'whole' })
  })
})
