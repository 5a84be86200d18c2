// One open notification channel as the registry sees it, whatever carries it (a WebSocket, a stream, a
// webhook, the legacy solid-0.1 socket).

import type { Principal } from '../auth/principal.ts'
import type { ResourceChange } from '../store/change-feed.ts'
import type { NotificationMessage, NotificationType } from './notification-message.ts'
import type { ChannelHolder } from './channel-holder.ts'

/** Channel types of the Solid Notifications Protocol this pod offers, and the legacy protocol. */
export type ChannelType = 'WebSocketChannel2023' | 'WebhookChannel2023' | 'StreamingHTTPChannel2023' | 'solid-0.1'

/** Solid Notifications Protocol §notification-features, as the channel asked for them. */
export interface ChannelFeatures {
  /** The state the subscriber holds: a notification is sent at once when the topic's differs. */
  readonly state?: string
  /** Epoch ms: nothing is sent before. */
  readonly startAt?: number
  /** Epoch ms: the channel ends then. */
  readonly endAt?: number
  /** Minimum ms between two notifications; changes in between are told as the latest one. */
  readonly rate?: number
  readonly accept: NotificationType
}

/** Who listens, as authentication found them when they subscribed: each notification is decided for them again. */
export type ListenerPrincipal = Pick<Principal, 'webid' | 'clientId' | 'issuer' | 'keys' | 'permissions' | 'session' | 'scheme'>

/** Why the pod ended a channel (told to the subscriber where the channel can carry it, and logged). */
export type EndReason =
  | 'unsubscribed'
  | 'access_lost'
  | 'session_revoked'
  | 'ended_by_owner'
  | 'end_at'
  | 'too_slow'
  | 'closed'
  | 'shutdown'
  | 'delivery_failed'

export interface Listener {
  /** The channel's id: a URL under /.notifications/ (the legacy socket's are internal). */
  readonly id: string
  readonly type: ChannelType
  /** Pod path of the topic. */
  readonly topic: string
  readonly principal: ListenerPrincipal
  /** Whose slot the channel takes (per-client cap, owner's or strangers' pool). */
  readonly holder: ChannelHolder
  /** The Origin the subscription came from, if any: WAC's acl:origin rules decide with it. */
  readonly origin?: string
  /** Epoch ms of the subscription. */
  readonly since: number
  readonly features: ChannelFeatures
  /**
   * Sends one notification. Never blocks and never queues without bound: a channel that cannot keep up ends
   * itself (and is then removed from the registry through `end`).
   */
  send(message: NotificationMessage, change: ResourceChange): void
  /** Closes the transport; the registry has already forgotten the channel. */
  close(reason: EndReason): void
}

/** The listener's identity as kept for the channel's life (no signed body, nothing of the request). */
export const listenerPrincipalOf = (p: Principal): ListenerPrincipal => ({
  keys: p.keys,
  scheme: p.scheme,
  ...(p.webid !== undefined ? { webid: p.webid } : {}),
  ...(p.clientId !== undefined ? { clientId: p.clientId } : {}),
  ...(p.issuer !== undefined ? { issuer: p.issuer } : {}),
  ...(p.permissions !== undefined ? { permissions: p.permissions } : {}),
  ...(p.session !== undefined ? { session: p.session } : {}),
})
