// Whose slot a notification channel takes: the client it is counted for (per-client cap) and whether it is the
// owner's (the owner's channels are counted apart, so strangers filling the pod never lock the owner out).

import { isAuthenticated, type Principal } from '../auth/principal.ts'
import { addressBlock } from '../lib/ip-address.ts'

export interface ChannelHolder {
  /**
   * The client a channel is counted for: the authenticated agent (its WebID, whatever app it uses: a client id
   * is the caller's to choose, so it must not buy more slots; or its keys without a WebID), or the client
   * address of an anonymous subscriber (an IPv6 one by its /64; `unknown` for in-process requests, which share one).
   */
  readonly client: string
  /** The pod owner's channel: never counted against the total strangers fill, nor against a per-client cap. */
  readonly owner: boolean
}

export function holderOf(p: Pick<Principal, 'webid' | 'clientId' | 'keys'>, address: string | undefined, ownerWebId: string): ChannelHolder {
  const owner = p.webid === ownerWebId
  if (!isAuthenticated(p)) return { client: `address ${address === undefined ? 'unknown' : addressBlock(address)}`, owner }
  return { client: p.webid !== undefined ? `agent ${p.webid}` : `keys ${[...p.keys].sort().join(' ')}`, owner }
}
