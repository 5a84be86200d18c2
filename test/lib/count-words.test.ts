import { describe, expect, test } from 'bun:test'
import { countOf } from '../../src/lib/count-words.ts'

describe('countOf', () => {
  test('the singular for one only', () => {
    expect(countOf(1, 'item')).toBe('1 item')
    expect(countOf(0, 'item')).toBe('0 items')
    expect(countOf(2, 'other browser')).toBe('2 other browsers')
  })
  test('thousands grouped, as the pages print them', () => {
    expect(countOf(2001, 'item')).toBe('2,001 items')
    expect(countOf(1000, 'day')).toBe('1,000 days')
  })
})
