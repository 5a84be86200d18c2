// The rule of a share link's expiry (issue 38: "a default and a maximum the owner sets; none only if chosen"): the
// default when none is asked for, the maximum refused with link_expiry_too_long, "never" only with no maximum.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { HttpError } from '../../src/http/errors.ts'
import {
  DAY_MS,
  INITIAL_LINK_EXPIRY,
  checkLinkExpirySettings,
  durationText,
  getLinkExpirySettings,
  linkExpiryChoices,
  linkLifetime,
  parseLinkDuration,
  saveLinkExpirySettings,
} from '../../src/account/link-expiry.ts'
import { addShareLink, listShareLinks } from '../../src/account/share-links.ts'
import { openTestPod, type TestPod } from '../op/op-fixture.ts'

const refusalOf = (f: () => unknown) => {
  try {
    f()
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, code: err.code, description: err.description }
    throw err
  }
  throw new Error('not refused')
}

const BOUNDED = { defaultMs: 3 * DAY_MS, maxMs: 30 * DAY_MS }
const UNBOUNDED = { defaultMs: 7 * DAY_MS, maxMs: null }

describe('linkLifetime: the one rule', () => {
  test("no expiry asked for: the owner's default", () => {
    expect(linkLifetime(undefined, BOUNDED)).toBe(3 * DAY_MS)
    expect(linkLifetime(undefined, { defaultMs: null, maxMs: null })).toBeNull()
  })

  test('up to the maximum: as asked', () => {
    expect(linkLifetime(30 * DAY_MS, BOUNDED)).toBe(30 * DAY_MS)
    expect(linkLifetime(3_600_000, BOUNDED)).toBe(3_600_000)
  })

  test('beyond the maximum: 400 link_expiry_too_long, naming the maximum', () => {
    expect(refusalOf(() => linkLifetime(30 * DAY_MS + 1000, BOUNDED))).toEqual({
      status: 400,
      code: 'link_expiry_too_long',
      description: 'a link expires after at most 30 days, the maximum the owner set',
    })
  })

  test('"never" under a maximum: 400 link_expiry_too_long; with no maximum: allowed', () => {
    const r = refusalOf(() => linkLifetime(null, BOUNDED))
    expect([r.status, r.code]).toEqual([400, 'link_expiry_too_long'])
    expect(r.description).toContain('never expires needs no maximum')
    expect(linkLifetime(null, UNBOUNDED)).toBeNull()
    expect(linkLifetime(5000 * DAY_MS, UNBOUNDED)).toBe(5000 * DAY_MS)
  })

  test('no time at all: 400 invalid_request', () => {
    expect(refusalOf(() => linkLifetime(0, UNBOUNDED)).code).toBe('invalid_request')
  })
})

describe('checkLinkExpirySettings', () => {
  test('a default longer than the maximum, or "never" under one: 400 invalid_request naming both', () => {
    const r = refusalOf(() => checkLinkExpirySettings({ defaultMs: 60 * DAY_MS, maxMs: 30 * DAY_MS }))
    expect([r.status, r.code]).toEqual([400, 'invalid_request'])
    expect(r.description).toContain('default expiry (60 days) must not be longer than the maximum (30 days)')
    expect(refusalOf(() => checkLinkExpirySettings({ defaultMs: null, maxMs: 30 * DAY_MS })).code).toBe('invalid_request')
  })

  test('a default equal to the maximum, and "never" with no maximum, are kept', () => {
    expect(checkLinkExpirySettings({ defaultMs: 30 * DAY_MS, maxMs: 30 * DAY_MS })).toEqual({ defaultMs: 30 * DAY_MS, maxMs: 30 * DAY_MS })
    expect(checkLinkExpirySettings({ defaultMs: null, maxMs: null })).toEqual({ defaultMs: null, maxMs: null })
  })
})

describe('the choices a form offers', () => {
  test('none beyond the maximum, the default among them, no "never" under a maximum', () => {
    expect(linkExpiryChoices({ defaultMs: 3 * DAY_MS, maxMs: 30 * DAY_MS })).toEqual([DAY_MS, 3 * DAY_MS, 7 * DAY_MS, 30 * DAY_MS])
    expect(linkExpiryChoices({ defaultMs: 12 * 3_600_000, maxMs: 12 * 3_600_000 })).toEqual([12 * 3_600_000])
  })

  test('"never" last, only with no maximum', () => {
    expect(linkExpiryChoices(UNBOUNDED).at(-1)).toBeNull()
    expect(linkExpiryChoices(INITIAL_LINK_EXPIRY)).not.toContain(null)
  })
})

describe('durations as typed', () => {
  test.each([
    ['30m', 30 * 60_000],
    ['12h', 12 * 3_600_000],
    ['7d', 7 * DAY_MS],
    ['2w', 14 * DAY_MS],
  ])('%s', (text, ms) => {
    expect(parseLinkDuration(text)).toBe(ms)
    expect(parseLinkDuration(durationText(ms, 'never'))).toBe(ms)
  })

  test('the word for none: never for an expiry, none for a maximum; anything else 400 invalid_request', () => {
    expect(parseLinkDuration('never')).toBeNull()
    expect(parseLinkDuration('none', '--max-expiry', 'none')).toBeNull()
    expect(refusalOf(() => parseLinkDuration('never', '--max-expiry', 'none')).code).toBe('invalid_request')
    expect(refusalOf(() => parseLinkDuration('3y')).description).toContain('--expires takes a duration such as 30m, 12h, 7d or 2w, or never')
  })
})

describe('in the store: addShareLink applies the settings', () => {
  let pod: TestPod
  beforeAll(async () => {
    pod = await openTestPod()
  })
  afterAll(() => pod.close())
  const NOW = Date.UTC(2026, 10, 29)

  test('until set: 7 days by default, at most 365 days, no "never"', async () => {
    expect(await getLinkExpirySettings(pod.deps.store)).toEqual(INITIAL_LINK_EXPIRY)
    const { link } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read' }, NOW)
    expect(link.expiresAt).toBe(NOW + 7 * DAY_MS)
    await expect(addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read', lifetimeMs: null }, NOW)).rejects.toMatchObject({
      code: 'link_expiry_too_long',
    })
  })

  test('the saved settings bound the next link; a refused one changes nothing', async () => {
    await saveLinkExpirySettings(pod.deps.store, { defaultMs: 2 * DAY_MS, maxMs: 10 * DAY_MS })
    const before = (await listShareLinks(pod.deps.store, NOW)).length
    await expect(addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read', lifetimeMs: 11 * DAY_MS }, NOW)).rejects.toMatchObject({
      status: 400,
      code: 'link_expiry_too_long',
    })
    expect((await listShareLinks(pod.deps.store, NOW)).length).toBe(before)
    const { link } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read' }, NOW)
    expect(link.expiresAt).toBe(NOW + 2 * DAY_MS)
  })

  test('lowering the maximum leaves the links already made as they were', async () => {
    await saveLinkExpirySettings(pod.deps.store, { defaultMs: 7 * DAY_MS, maxMs: null })
    const { link } = await addShareLink(pod.deps.store, { path: '/profile/card', allows: 'read', lifetimeMs: null }, NOW)
    await saveLinkExpirySettings(pod.deps.store, { defaultMs: DAY_MS, maxMs: DAY_MS })
    const kept = (await listShareLinks(pod.deps.store, NOW)).find(l => l.id === link.id)!
    expect(kept.expiresAt).toBeUndefined()
  })
})
