// WebSocketChannel2023 (and the transport of any socket channel): a Listener that writes to one socket and
// ends the channel when the socket falls behind.

import type { PodSocket } from '../http/socket-session.ts'
import type { ChannelRegistry } from '../channels/channel-registry.ts'
import type { EndReason, Listener } from '../channels/listener.ts'
import { serializeNotification } from '../channels/notification-message.ts'
import type { PendingChannel } from './pending-channels.ts'

/**
 * Unsent bytes a socket may hold: a subscriber that stops reading is closed once its queue passes this
 * (RFC 6455 close 1008 with the reason); it may subscribe again with `state` to learn what it missed.
 */
export const CHANNEL_QUEUE_BYTES = 256 * 1024

/** RFC 6455 §7.4.1 close codes: a normal end, the pod going away, or a policy reason. */
export function closeCodeOf(reason: EndReason): number {
  switch (reason) {
    case 'unsubscribed':
    case 'ended_by_owner':
    case 'end_at':
    case 'closed':
      return 1000
    case 'shutdown':
      return 1001
    default:
      return 1008
  }
}

export function socketListener(
  channel: PendingChannel,
  ws: PodSocket,
  channels: Pick<ChannelRegistry, 'end' | 'buffers'>,
  format: (listener: Listener, ...args: Parameters<Listener['send']>) => string = (l, m) => serializeNotification(m, l.features.accept),
): Listener {
  channels.buffers.track(
    channel.id,
    () => ws.getBufferedAmount(),
    () => channels.end(channel.id, 'too_slow'),
  )
  const listener: Listener = {
    ...channel,
    send(message, change) {
      const sent = ws.send(format(listener, message, change))
      // 0: Bun dropped the message (the socket is closing or its backstop is full); past the queue bound the
      // subscriber is too slow: either way the channel ends rather than hold more. The amount is read once
      // and given to the budget (a read per send counts in a fan-out to 1,000 sockets).
      const unsent = sent === 0 ? 0 : ws.getBufferedAmount()
      if (sent === 0 || unsent > CHANNEL_QUEUE_BYTES) channels.end(channel.id, 'too_slow')
      else channels.buffers.wrote(channel.id, unsent)
    },
    close(reason) {
      channels.buffers.forget(channel.id)
      // A close frame would wait behind everything unsent (and the client is not reading): a subscriber too
      // slow to keep up loses its connection at once.
      if (reason === 'too_slow') ws.terminate()
      else ws.close(closeCodeOf(reason), reason)
    },
  }
  return listener
}
