// What the Links page says of a link's expiry: the owner decides from it whether to remove the link.

import { describe, expect, test } from 'bun:test'
import { expiresText } from '../../src/admin/links-page.ts'
import { DAY_MS, type ShareLink } from '../../src/account/share-links.ts'

const NOW = Date.UTC(2026, 10, 29)
const link = (expiresAt?: number): ShareLink => ({
  id: 'link-x',
  path: '/a/',
  allows: 'read',
  name: '',
  createdAt: NOW - DAY_MS,
  uses: 0,
  ...(expiresAt !== undefined ? { expiresAt } : {}),
})

describe('expiresText', () => {
  test('days, hours, less than an hour, expired, never', () => {
    // a 7-day link made a moment ago says 7 days, not 6
    expect(expiresText(link(NOW + 7 * DAY_MS - 60_000), NOW)).toBe('in 7 days')
    expect(expiresText(link(NOW + 6 * DAY_MS + 11 * 3_600_000), NOW)).toBe('in 6 days')
    expect(expiresText(link(NOW + DAY_MS - 10 * 60_000), NOW)).toBe('in 1 day')
    expect(expiresText(link(NOW + 22 * 3_600_000 + 40 * 60_000), NOW)).toBe('in 23 hours')
    expect(expiresText(link(NOW + DAY_MS), NOW)).toBe('in 1 day')
    expect(expiresText(link(NOW + 3 * 3_600_000 + 5), NOW)).toBe('in 3 hours')
    expect(expiresText(link(NOW + 3_600_000), NOW)).toBe('in 1 hour')
    expect(expiresText(link(NOW + 60_000), NOW)).toBe('in less than an hour')
    expect(expiresText(link(NOW), NOW)).toBe('expired')
    expect(expiresText(link(NOW - DAY_MS), NOW)).toBe('expired')
    expect(expiresText(link(), NOW)).toBe('never')
  })
})
