// What work done on behalf of one request needs to know of it deep down, without threading it through
// every verifier: today, who the client is, so remote fetches made for it count against its budget.

import { AsyncLocalStorage } from 'node:async_hooks'

export interface RequestScope {
  /** The client's address, or undefined when none is known (in-process requests); looked up on first use. */
  readonly client: () => string | undefined
}

const scope = new AsyncLocalStorage<RequestScope>()

/** Runs `work` (and everything it awaits) as done for this request. */
export const inRequestScope = <T>(s: RequestScope, work: () => T): T => scope.run(s, work)

/** The client the current work is done for; undefined outside a request or when its address is unknown. */
export const currentClient = (): string | undefined => scope.getStore()?.client()
