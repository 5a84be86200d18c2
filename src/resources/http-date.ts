// RFC 9110 §5.6.7 IMF-fixdate of a modification time, for Last-Modified.

import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'

/** The same few times are formatted on every read. */
const httpDates = forgetWhenIdle(new LruCache<number, string>(1000))
export const httpDate = (ms: number): string => httpDates.memo(ms, t => new Date(t).toUTCString())
