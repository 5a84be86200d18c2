// Channels subscribed to but not yet connected: a WebSocketChannel2023 or StreamingHTTPChannel2023 request
// answers a receiveFrom URL, and the channel opens when the client connects to it.

import type { ChannelFeatures, ChannelType, ListenerPrincipal } from '../channels/listener.ts'

export interface PendingChannel {
  /** The channel's id (a URL under /.notifications/): its last segment is the secret that receiveFrom carries. */
  readonly id: string
  readonly type: ChannelType
  readonly topic: string
  readonly principal: ListenerPrincipal
  readonly origin?: string
  readonly features: ChannelFeatures
  readonly since: number
}

/** How long a receiveFrom URL waits for its client (documented in docs/notifications.md). */
export const CONNECT_WITHIN_MS = 5 * 60_000
/** Subscribed-but-unconnected channels at most; past it the oldest are forgotten first. */
const MAX_PENDING = 10_000

export function makePendingChannels(now: () => number) {
  const pending = new Map<string, { channel: PendingChannel; expires: number }>()
  const sweep = (at: number) => {
    for (const [key, p] of pending) if (p.expires <= at) pending.delete(key); else break
  }
  return {
    /** Keeps `channel` until its client connects (or CONNECT_WITHIN_MS pass). */
    put(key: string, channel: PendingChannel): void {
      const at = now()
      sweep(at)
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!)
      pending.set(key, { channel, expires: Math.min(at + CONNECT_WITHIN_MS, channel.features.endAt ?? Infinity) })
    },
    /** The channel waiting at `key`, taken (a receiveFrom URL opens one connection). */
    take(key: string): PendingChannel | undefined {
      const p = pending.get(key)
      pending.delete(key)
      return p && p.expires > now() ? p.channel : undefined
    },
    /** Forgets a channel unsubscribed before it connected; true when it was waiting. */
    drop(key: string): PendingChannel | undefined {
      const p = pending.get(key)
      pending.delete(key)
      return p?.channel
    },
    peek: (key: string) => pending.get(key)?.channel,
  }
}

export type PendingChannels = ReturnType<typeof makePendingChannels>
