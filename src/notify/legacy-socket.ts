// The legacy solid-0.1 WebSocket (NSS, rdflib's UpdateManager, the SolidOS data browser): the client sends
// `sub <url>` lines; the pod answers `ack <url>` when the socket's agent may read it, and then `pub <url>` on each
// change of it (of a container: a member added or removed). Each sub is a Listener of the registry, so every
// `pub` is decided again; a sub whose access ends is dropped alone, the socket stays.

import type { PodSocket, SocketSession } from '../http/socket-session.ts'
import type { ChannelRegistry } from '../channels/channel-registry.ts'
import type { Listener, ListenerPrincipal } from '../channels/listener.ts'
import type { ChannelHolder } from '../channels/channel-holder.ts'
import { ANONYMOUS } from '../auth/principal.ts'
import { resolveTarget } from '../store/target.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import { CHANNEL_QUEUE_BYTES } from './socket-listener.ts'

/** Topics one socket may listen to (SolidOS subs the documents of the page it shows). */
export const MAX_SUBS_PER_SOCKET = 100
const SUBPROTOCOL = 'solid-0.1'

export interface LegacyDeps {
  readonly baseUrl: string
  readonly channels: ChannelRegistry
  /** Channels of a client subscribed to elsewhere and waiting for their connection: they hold its slots too. */
  readonly waitingOf: (client: string) => number
  readonly now: () => number
}

let sockets = 0

/**
 * A solid-0.1 socket for `principal` (anonymous when its capability was missing, forged or expired); each sub
 * takes a channel slot of `holder`.
 */
export function legacySocket(deps: LegacyDeps, principal: ListenerPrincipal | undefined, holder: ChannelHolder, request: Request): SocketSession {
  const who = principal ?? { keys: ANONYMOUS.keys, scheme: ANONYMOUS.scheme }
  const origin = request.headers.get('origin') ?? undefined
  const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map(p => p.trim())
  const socketId = `${deps.baseUrl}${NOTIFY_PATHS.legacy}#socket-${++sockets}`
  const subs = new Map<string, string>() // topic path → listener id
  const deciding = new Map<string, Promise<string>>() // topic path → its sub's answer, while being decided
  let made = 0
  let open = true

  function listenerFor(ws: PodSocket, topic: string, url: string): Listener {
    const id = `${socketId}-${++made}`
    return {
      id,
      type: 'solid-0.1',
      topic,
      principal: who,
      holder,
      ...(origin !== undefined ? { origin } : {}),
      since: deps.now(),
      features: { accept: 'application/ld+json' },
      send() {
        ws.send(`pub ${url}`)
        const unsent = ws.getBufferedAmount()
        if (unsent > CHANNEL_QUEUE_BYTES) deps.channels.end(id, 'too_slow')
        else deps.channels.buffers.wrote(socketId, unsent)
      },
      close(reason) {
        subs.delete(topic)
        // too slow for one topic is too slow for the socket; any other end drops this sub alone
        if (reason === 'too_slow' || reason === 'shutdown' || reason === 'ended_by_owner') {
          if (reason === 'too_slow') ws.terminate()
          else ws.close(reason === 'shutdown' ? 1001 : 1000, reason)
        }
      },
    }
  }

  /** Decides one sub and opens its listener: 'ack', or the reason of the `err` line. */
  async function decide(ws: PodSocket, topic: string, url: string): Promise<string> {
    // Existence is never told: a topic the agent may not read gets the same answer whether or not it exists.
    if (!(await deps.channels.mayListen(who, topic, origin))) return 'forbidden'
    if (!open) return 'the socket is closed'
    const noRoom = deps.channels.noRoomFor(holder, deps.waitingOf(holder.client))
    if (noRoom === 'client') return 'too many notification channels from this client'
    if (noRoom === 'pod') return 'the pod has as many notification channels open as it keeps'
    const listener = listenerFor(ws, topic, url)
    subs.set(topic, listener.id)
    await deps.channels.open(listener)
    return 'ack'
  }

  async function subscribe(ws: PodSocket, target: string): Promise<void> {
    const url = target.split('#', 1)[0]!
    let topic: string
    try {
      if (!url.startsWith(`${deps.baseUrl}/`) || url.includes('?')) throw new Error('not here')
      topic = resolveTarget(deps.baseUrl, url).path
    } catch {
      ws.send(`err ${url} not a resource of this pod`)
      return
    }
    let verdict = subs.has(topic) ? Promise.resolve('ack') : deciding.get(topic)
    if (!verdict) {
      // subs still being decided count too: the lines of one message are all read before the first is decided
      if (subs.size + deciding.size >= MAX_SUBS_PER_SOCKET) {
        ws.send(`err ${url} too many subscriptions on this socket (${MAX_SUBS_PER_SOCKET})`)
        return
      }
      verdict = decide(ws, topic, url).finally(() => deciding.delete(topic))
      deciding.set(topic, verdict)
    }
    const answer = await verdict
    ws.send(answer === 'ack' ? `ack ${url}` : `err ${url} ${answer}`)
  }

  return {
    ...(offered.includes(SUBPROTOCOL) ? { headers: { 'sec-websocket-protocol': SUBPROTOCOL } } : {}),
    // the client speaks first; the socket's unsent bytes count in the pod's budget, once for all its subs
    open(ws) {
      deps.channels.buffers.track(
        socketId,
        () => ws.getBufferedAmount(),
        () => ws.terminate(),
      )
    },
    message(ws, message) {
      for (const line of message.split('\n')) {
        const m = /^sub\s+(\S+)\s*$/.exec(line.trim())
        if (m) void subscribe(ws, m[1]!).catch(() => ws.send(`err ${m[1]} the subscription could not be made`))
      }
    },
    close() {
      open = false
      deps.channels.buffers.forget(socketId)
      for (const id of [...subs.values()]) deps.channels.end(id, 'closed')
      subs.clear()
    },
  }
}
