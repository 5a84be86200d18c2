// A Solid Notifications client written from the protocol text (0.3 and its channel types), for the e2e
// tests: the owner's app with a DPoP-bound token, subscriptions, and a socket or stream that collects what arrives.

import { CookieJar, dpopProof, newDpopKey, type DpopKey } from '../op/op-fixture.ts'
import { exchangeCode, obtainCodeOverHttp, serveClientIdDocument, type CodeOptions, type ClientIdServer, type TokenSet } from './oidc-client.ts'
import { OWNER_PASSWORD, type RunningPod } from './start-server.ts'

export const NOTIFICATION_CONTEXT = 'https://www.w3.org/ns/solid/notification/v1'

export interface Notification {
  '@context': string[]
  id: string
  type: string
  object: string
  target?: string
  state?: string
  published: string
}

/** An app the owner signed in to: fetch with its DPoP-bound token. */
export interface OwnerApp {
  readonly client: ClientIdServer
  readonly browser: CookieJar
  readonly tokens: TokenSet
  /** The app's DPoP key (its ID token is bound to it: a UMA exchange proves it). */
  readonly key: DpopKey
  fetch(url: string, init?: RequestInit): Promise<Response>
  stop(): void
}

export async function signInOwnerApp(pod: RunningPod, name = 'Notifications test app', o: CodeOptions = {}): Promise<OwnerApp> {
  const client = serveClientIdDocument(name, o.scope)
  const browser = new CookieJar()
  const key: DpopKey = await newDpopKey()
  const tokens = await exchangeCode(pod.baseUrl, client, key, await obtainCodeOverHttp(pod.baseUrl, client, browser, OWNER_PASSWORD, fetch, o))
  const token = tokens.access_token as string
  return {
    client,
    browser,
    tokens,
    key,
    fetch: async (url, init = {}) =>
      fetch(url, {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          authorization: `DPoP ${token}`,
          dpop: await dpopProof(key, (init.method ?? 'GET').toUpperCase(), url.split('?')[0]!, Date.now(), { accessToken: token }),
        },
      }),
    stop: () => client.stop(),
  }
}

export interface ChannelAnswer {
  status: number
  body: Record<string, unknown>
}

/** POSTs a channel request to the service of `type` (as JSON-LD), through `fetcher` (anonymous: plain fetch). */
export async function subscribe(
  pod: RunningPod,
  type: string,
  topic: string,
  features: Record<string, unknown> = {},
  fetcher: (url: string, init?: RequestInit) => Promise<Response> = fetch,
): Promise<ChannelAnswer> {
  const res = await fetcher(`${pod.baseUrl}/.notifications/${type}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/ld+json' },
    body: JSON.stringify({ '@context': [NOTIFICATION_CONTEXT], type, topic, ...features }),
  })
  const text = await res.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text)
  } catch {
    body = { text }
  }
  return { status: res.status, body }
}

/** Messages as they arrive on a socket or a stream, awaited one at a time. */
export class Inbox<T> {
  private readonly items: T[] = []
  private waiter?: (v: T) => void
  closed?: { code: number; reason: string }
  private closeWaiter?: () => void
  push(item: T) {
    if (this.waiter) {
      const w = this.waiter
      this.waiter = undefined
      w(item)
    } else this.items.push(item)
  }
  close(code: number, reason: string) {
    this.closed = { code, reason }
    this.closeWaiter?.()
  }
  /** The next message, or an error after `ms`. */
  next(ms = 3000): Promise<T> {
    const item = this.items.shift()
    if (item !== undefined) return Promise.resolve(item)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined
        reject(new Error(`no message within ${ms} ms`))
      }, ms)
      this.waiter = v => {
        clearTimeout(timer)
        resolve(v)
      }
    })
  }
  /** True when nothing arrives within `ms`. */
  async quietFor(ms: number): Promise<boolean> {
    if (this.items.length > 0) return false
    await Bun.sleep(ms)
    return this.items.length === 0
  }
  get pending(): readonly T[] {
    return this.items
  }
  /** Resolves when the channel closed (or after `ms`). */
  async closedWithin(ms = 3000): Promise<{ code: number; reason: string } | undefined> {
    if (this.closed) return this.closed
    await new Promise<void>(resolve => {
      const t = setTimeout(resolve, ms)
      this.closeWaiter = () => {
        clearTimeout(t)
        resolve()
      }
    })
    return this.closed
  }
}

/** Connects to a WebSocketChannel2023 receiveFrom; resolves once open. */
export async function listenOnSocket(receiveFrom: string, protocols?: string[]): Promise<{ socket: WebSocket; inbox: Inbox<Notification> }> {
  const socket = new WebSocket(receiveFrom, protocols)
  const inbox = new Inbox<Notification>()
  socket.onmessage = e => inbox.push(JSON.parse(String(e.data)) as Notification)
  socket.onclose = e => inbox.close(e.code, e.reason)
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve()
    socket.onerror = () => reject(new Error(`could not open ${receiveFrom}`))
  })
  return { socket, inbox }
}

/** Reads a StreamingHTTPChannel2023 response: one JSON-LD notification per line (blank lines keep it alive). */
export function listenOnStream(res: Response): { inbox: Inbox<Notification>; stop(): void } {
  const inbox = new Inbox<Notification>()
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  void (async () => {
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        buffered += r.value
        let nl: number
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim()
          buffered = buffered.slice(nl + 1)
          if (line !== '') inbox.push(JSON.parse(line) as Notification)
        }
      }
      inbox.close(1000, 'end of stream')
    } catch {
      inbox.close(1006, 'stream failed')
    }
  })()
  return {
    inbox,
    stop: () => {
      void reader.cancel()
    },
  }
}
