// Channels subscribed to but not yet connected: a WebSocketChannel2023 or StreamingHTTPChannel2023 request
// answers a receiveFrom URL, and the channel opens when the client connects to it.

import type { ChannelFeatures, ChannelType, ListenerPrincipal } from '../channels/listener.ts'
import type { ChannelHolder } from '../channels/channel-holder.ts'

export interface PendingChannel {
  /** The channel's id (a URL under /.notifications/): its last segment is the secret that receiveFrom carries. */
  readonly id: string
  readonly type: ChannelType
  readonly topic: string
  readonly principal: ListenerPrincipal
  readonly holder: ChannelHolder
  readonly origin?: string
  readonly features: ChannelFeatures
  readonly since: number
}

/** How long a receiveFrom URL waits for its client (documented in docs/notifications.md). */
export const CONNECT_WITHIN_MS = 5 * 60_000
/** Subscribed-but-unconnected channels at most; past it the oldest of others than the owner are forgotten first. */
const MAX_PENDING = 10_000

export function makePendingChannels(now: () => number) {
  const pending = new Map<string, { channel: PendingChannel; expires: number }>()
  /** Waiting channels per client: they count against its cap (a client cannot park thousands here). */
  const perClient = new Map<string, number>()
  const remove = (key: string) => {
    const p = pending.get(key)
    if (!p) return undefined
    pending.delete(key)
    const n = (perClient.get(p.channel.holder.client) ?? 1) - 1
    if (n > 0) perClient.set(p.channel.holder.client, n)
    else perClient.delete(p.channel.holder.client)
    return p
  }
  // Every entry, not up to the first one still waiting: a channel's own endAt can end it before one put earlier
  // (at most MAX_PENDING entries, a few µs each)
  const sweep = (at: number) => {
    for (const [key, p] of pending) if (p.expires <= at) remove(key)
  }
  /** Makes room for one more: the oldest waiting channel of a stranger goes (the owner's only when all are). */
  const evict = () => {
    for (const [key, p] of pending)
      if (!p.channel.holder.owner) {
        remove(key)
        return
      }
    remove(pending.keys().next().value!)
  }
  return {
    /** Keeps `channel` until its client connects (or CONNECT_WITHIN_MS pass). */
    put(key: string, channel: PendingChannel): void {
      const at = now()
      sweep(at)
      if (pending.size >= MAX_PENDING) evict()
      pending.set(key, { channel, expires: Math.min(at + CONNECT_WITHIN_MS, channel.features.endAt ?? Infinity) })
      perClient.set(channel.holder.client, (perClient.get(channel.holder.client) ?? 0) + 1)
    },
    /** The channel waiting at `key`, taken (a receiveFrom URL opens one connection). */
    take(key: string): PendingChannel | undefined {
      const p = remove(key)
      return p && p.expires > now() ? p.channel : undefined
    },
    /** Forgets a channel unsubscribed before it connected; true when it was waiting. */
    drop(key: string): PendingChannel | undefined {
      return remove(key)?.channel
    },
    peek: (key: string) => pending.get(key)?.channel,
    /** Channels of `client` waiting for their connection (expired ones go first). */
    countOf(client: string): number {
      sweep(now())
      return perClient.get(client) ?? 0
    },
  }
}

export type PendingChannels = ReturnType<typeof makePendingChannels>
