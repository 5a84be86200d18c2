import { expect, test } from 'bun:test'
import { FailureLimiter } from '../../src/http/rate-limit.ts'

const MIN = 60_000

test('growing delays: each window used up again doubles the wait, up to the cap', () => {
  const limiter = new FailureLimiter({ max: 2, windowMs: 15 * MIN, maxWindowMs: 60 * MIN })
  let now = 0
  const exhaust = () => {
    limiter.recordFailure('a', now)
    limiter.recordFailure('a', now)
  }
  exhaust()
  expect(limiter.retryAfter('a', now)).toBe(15 * 60)
  now += 15 * MIN
  expect(limiter.retryAfter('a', now)).toBe(0)
  exhaust()
  expect(limiter.retryAfter('a', now)).toBe(30 * 60)
  now += 30 * MIN
  exhaust()
  expect(limiter.retryAfter('a', now)).toBe(60 * 60)
  now += 60 * MIN
  exhaust()
  expect(limiter.retryAfter('a', now)).toBe(60 * 60)
  // another key starts at one window
  limiter.recordFailure('b', now)
  limiter.recordFailure('b', now)
  expect(limiter.retryAfter('b', now)).toBe(15 * 60)
})

test('without growing delays every wait is one window', () => {
  const limiter = new FailureLimiter({ max: 1, windowMs: 15 * MIN })
  limiter.recordFailure('a', 0)
  expect(limiter.retryAfter('a', 0)).toBe(15 * 60)
  limiter.recordFailure('a', 15 * MIN)
  expect(limiter.retryAfter('a', 15 * MIN)).toBe(15 * 60)
})

test('an attempt taken back (forgive) takes back the doubled wait it struck', () => {
  const limiter = new FailureLimiter({ max: 2, windowMs: 15 * MIN, maxWindowMs: 60 * MIN })
  let now = 0
  limiter.recordFailure('a', now)
  limiter.recordFailure('a', now)
  now += 15 * MIN
  limiter.recordFailure('a', now)
  // the attempt that uses the window up is counted before it is checked, and was no failure
  expect(limiter.begin('a', now)).toBe(0)
  limiter.forgive('a', now)
  expect(limiter.retryAfter('a', now)).toBe(0)
  // the next real failure strikes the second window once: 30 minutes, not 60
  limiter.recordFailure('a', now)
  expect(limiter.retryAfter('a', now)).toBe(30 * 60)
})
