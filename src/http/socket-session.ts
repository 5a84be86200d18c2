// WebSockets of the pod (notification channels): the server upgrades a request to a session the role
// that accepted it made, and every socket event goes to that session.

import type { ServerWebSocket, WebSocketHandler } from 'bun'

export type PodSocket = ServerWebSocket<SocketSession>

export interface SocketSession {
  /** Headers of the 101 answer: the subprotocol chosen, when the client offered one. */
  readonly headers?: Record<string, string>
  open(ws: PodSocket): void
  message(ws: PodSocket, message: string): void
  close(ws: PodSocket, code: number, reason: string): void
}

/** A socket message larger than this is refused by the server (notification clients send a few words). */
const MAX_MESSAGE_BYTES = 16 * 1024
/**
 * What a socket may hold unsent: a listener that stops reading is closed well before (the channels check
 * their own, smaller bound); this is the server's backstop.
 */
export const SOCKET_BACKPRESSURE_BYTES = 4 * 1024 * 1024

/** Bun's socket handlers: each event goes to the session of its socket. */
export const socketHandlers: WebSocketHandler<SocketSession> = {
  open: ws => ws.data.open(ws),
  message: (ws, message) => ws.data.message(ws, typeof message === 'string' ? message : new TextDecoder().decode(message)),
  close: (ws, code, reason) => ws.data.close(ws, code, reason),
  maxPayloadLength: MAX_MESSAGE_BYTES,
  backpressureLimit: SOCKET_BACKPRESSURE_BYTES,
  closeOnBackpressureLimit: true,
  // Pings keep a quiet channel open through proxies, and a socket whose client is gone is closed in ~2 min.
  sendPings: true,
  idleTimeout: 120,
}

/** A request that asks for a WebSocket (RFC 6455 §4.1). */
export const asksForSocket = (request: Request) => request.headers.get('upgrade')?.toLowerCase() === 'websocket'
