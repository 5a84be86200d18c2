// What the role plugins receive from app.ts: plain values and functions, no container.

import type { Config } from './config.ts'
import type { Store } from './store/open-store.ts'
import type { FetchDoc } from './fetch/guarded-fetch.ts'
import type { WithResourceLocks } from './store/resource-locks.ts'

export interface Deps {
  readonly cfg: Config
  readonly store: Store
  /** Epoch milliseconds; tests pass a controllable clock. */
  readonly now: () => number
  /** The one way to GET a remote document (DESIGN §6). */
  readonly fetchDoc: FetchDoc
  /** Locks of the resources a write touches, held from its precondition checks to its commit. */
  readonly withResourceLocks: WithResourceLocks
}
