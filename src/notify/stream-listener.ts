// StreamingHTTPChannel2023: a Listener whose notifications are written, one after another, into one
// long-lived HTTP response.

import type { ChannelRegistry } from '../channels/channel-registry.ts'
import type { Listener } from '../channels/listener.ts'
import { serializeNotification } from '../channels/notification-message.ts'
import type { PendingChannel } from './pending-channels.ts'
import { CHANNEL_QUEUE_BYTES } from './socket-listener.ts'

/**
 * A newline this often keeps a quiet stream open (Bun closes a connection idle for 10 s) and finds clients
 * that went away.
 */
export const STREAM_HEARTBEAT_MS = 5_000

const encoder = new TextEncoder()

/** The listener and the response that carries its notifications; the channel ends when the client cancels. */
export function streamListener(channel: PendingChannel, channels: Pick<ChannelRegistry, 'end' | 'buffers'>): { listener: Listener; response: Response } {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let closed = false
  let heartbeat: ReturnType<typeof setInterval> | undefined
  const write = (text: string) => {
    if (closed) return
    controller.enqueue(encoder.encode(text))
    // desiredSize counts down past zero as bytes wait unread: past the bound the subscriber is too slow
    if ((controller.desiredSize ?? 0) < 0) channels.end(channel.id, 'too_slow')
    else channels.buffers.wrote(channel.id)
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
        // what waits in the stream's queue, unread: the high-water mark less what it still desires
        channels.buffers.track(
          channel.id,
          () => CHANNEL_QUEUE_BYTES - (c.desiredSize ?? CHANNEL_QUEUE_BYTES),
          () => channels.end(channel.id, 'too_slow'),
        )
        // The headers go out with the first bytes: a client waits for them before it reads the stream.
        c.enqueue(encoder.encode('\n'))
        heartbeat = setInterval(() => write('\n'), STREAM_HEARTBEAT_MS)
      },
      cancel() {
        closed = true
        channels.buffers.forget(channel.id)
        clearInterval(heartbeat)
        channels.end(channel.id, 'closed')
      },
    },
    { highWaterMark: CHANNEL_QUEUE_BYTES, size: chunk => chunk?.byteLength ?? 0 },
  )
  const listener: Listener = {
    ...channel,
    // One notification per line (JSON-LD) or per Turtle document, each ending in a blank line
    send(message) {
      write(serializeNotification(message, channel.features.accept) + '\n')
    },
    close() {
      if (closed) return
      closed = true
      channels.buffers.forget(channel.id)
      clearInterval(heartbeat)
      try {
        controller.close()
      } catch {
        /* already errored by the client going away: nothing left to close */
      }
    },
  }
  const response = new Response(body, {
    headers: { 'content-type': `${channel.features.accept}; charset=utf-8`, 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  })
  return { listener, response }
}
