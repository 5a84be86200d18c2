// What the role plugins receive from app.ts: plain values and functions, no container.

import type { Config } from './config.ts'
import type { Store } from './store/open-store.ts'
import type { FetchDoc } from './fetch/guarded-fetch.ts'
import type { WithWriteLock } from './store/write-lock.ts'

export interface Deps {
  readonly cfg: Config
  readonly store: Store
  /** Epoch milliseconds; tests pass a controllable clock. */
  readonly now: () => number
  /** The one way to GET a remote document (DESIGN §6). */
  readonly fetchDoc: FetchDoc
  /** Serialises resource writes (precondition + write as one step). */
  readonly withWriteLock: WithWriteLock
}
