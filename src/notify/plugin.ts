// The notification role (Solid Notifications Protocol 0.3): subscription services, WebSocketChannel2023,
// StreamingHTTPChannel2023 and WebhookChannel2023 channels (with the pod's key document), unsubscribing.
// Every channel is a Listener in deps.channels, which decides each change again for it.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toResourceResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import type { SocketSession } from '../http/socket-session.ts'
import { ownerWebIdOf } from '../config.ts'
import { makeAccessControl } from '../policy/access-control.ts'
import { resolveTarget } from '../store/target.ts'
import { preferredRdfType } from '../rdf/media-types.ts'
import { serializeRdf } from '../rdf/serialize-rdf.ts'
import { NOTIFY, RDF } from '../rdf/namespaces.ts'
import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { listenerPrincipalOf, type ChannelType, type ListenerPrincipal } from '../channels/listener.ts'
import { notificationTypeFor } from '../channels/subscription-request.ts'
import { SUBSCRIPTION_SERVICES, subscriptionServiceQuads } from '../channels/subscription-services.ts'
import { makePendingChannels, type PendingChannel } from './pending-channels.ts'
import { acceptSubscription, authorizeListener, checkRoom, holderFor, notTheSubscriber, roomRefusal, type Subscriber } from './subscribe.ts'
import { holderOf } from '../channels/channel-holder.ts'
import { ANONYMOUS } from '../auth/principal.ts'
import { socketListener } from './socket-listener.ts'
import { legacySocket } from './legacy-socket.ts'
import { streamListener } from './stream-listener.ts'

const { namedNode, literal, quad } = DataFactory
const CHANNEL_CONTEXT = ['https://www.w3.org/ns/solid/notification/v1']
const TOPIC_STREAMS = `${NOTIFY_PATHS.streaming}topics/`
/** The secret last segment of a channel id: 128 random bits, hex. */
const CHANNEL_KEY = /^[0-9a-f]{32}$/

/** The channel description's triples: the channel typed with its channel type, its fields in notify:. */
function channelQuads(c: PendingChannel, fields: Record<string, string>): Quad[] {
  const self = namedNode(c.id)
  const IRIS = new Set(['topic', 'receiveFrom', 'sendTo', 'sender'])
  return [
    quad(self, namedNode(RDF('type')), namedNode(NOTIFY(c.type))),
    ...Object.entries(fields).map(([k, v]) => quad(self, namedNode(NOTIFY(k)), IRIS.has(k) ? namedNode(v) : literal(v))),
  ]
}

const newKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

/** Two principals are one listener when they are the same agent with the same keys (the stream of a channel is its subscriber's). */
const sameAgent = (a: ListenerPrincipal, b: ListenerPrincipal) =>
  a.webid === b.webid && a.keys.length === b.keys.length && a.keys.every(k => b.keys.includes(k))

export function makeNotifications(deps: Deps) {
  const { cfg, channels } = deps
  const access = makeAccessControl(deps)
  const pending = makePendingChannels(deps.now)

  /**
   * The channel as the subscription response describes it (§subscription-response): JSON-LD, or Turtle to a
   * client that asks for Turtle and not JSON. A socket or stream is received from `receiveFrom`; a webhook
   * names its `sendTo` and the pod's key document as `sender`.
   */
  async function describeChannel(request: Request, c: PendingChannel, link: { receiveFrom: string } | { sendTo: string; sender: string }): Promise<Response> {
    const f = c.features
    const fields = {
      topic: cfg.baseUrl + c.topic,
      ...link,
      ...(f.state !== undefined ? { state: f.state } : {}),
      ...(f.startAt !== undefined ? { startAt: new Date(f.startAt).toISOString() } : {}),
      ...(f.endAt !== undefined ? { endAt: new Date(f.endAt).toISOString() } : {}),
      ...(f.rate !== undefined ? { rate: `PT${f.rate / 1000}S` } : {}),
      accept: f.accept,
    }
    const headers = { 'cache-control': 'no-store', vary: 'Accept, Origin' }
    const accept = request.headers.get('accept') ?? ''
    if (/text\/turtle/i.test(accept) && !/application\/(ld\+)?json/i.test(accept)) {
      return new Response(await serializeRdf(channelQuads(c, fields), 'text/turtle', c.id), {
        headers: { ...headers, 'content-type': 'text/turtle; charset=utf-8' },
      })
    }
    return new Response(JSON.stringify({ '@context': CHANNEL_CONTEXT, id: c.id, type: c.type, ...fields }), {
      headers: { ...headers, 'content-type': 'application/ld+json' },
    })
  }

  function pendingOf(s: Subscriber, service: string, key: string): PendingChannel {
    return {
      id: cfg.baseUrl + service + key,
      type: s.request.type,
      topic: s.request.topic,
      principal: s.principal,
      holder: s.holder,
      ...(s.origin !== undefined ? { origin: s.origin } : {}),
      features: s.request.features,
      since: deps.now(),
    }
  }

  async function subscribe(request: Request, type: Exclude<ChannelType, 'solid-0.1' | 'WebhookChannel2023'>): Promise<Response> {
    // channels waiting for their connection take their client's slots too
    const s = await acceptSubscription(deps, access, request, type, pending.countOf)
    const key = newKey()
    const channel = pendingOf(s, SUBSCRIPTION_SERVICES[type], key)
    pending.put(key, channel)
    return describeChannel(request, channel, { receiveFrom: type === 'WebSocketChannel2023' ? channel.id.replace(/^http/, 'ws') : channel.id })
  }

  /** WebhookChannel2023: the channel is stored and its notifications are POSTed to sendTo (channels/webhooks.ts). */
  async function subscribeWebhook(request: Request): Promise<Response> {
    const s = await acceptSubscription(deps, access, request, 'WebhookChannel2023')
    const sub = await deps.webhooks.subscribe({
      topic: s.request.topic,
      principal: s.principal,
      ...(s.origin !== undefined ? { origin: s.origin } : {}),
      features: s.request.features,
      sendTo: s.request.sendTo!,
    })
    return describeChannel(
      request,
      { ...sub, type: 'WebhookChannel2023', features: s.request.features, holder: s.holder },
      { sendTo: sub.sendTo, sender: deps.webhooks.sender },
    )
  }

  /** Quads as one RDF document in the syntax asked for (Turtle, JSON-LD or N-Triples). */
  async function rdfResponse(
    request: Request,
    quads: Parameters<typeof serializeRdf>[0],
    base: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const mediaType = preferredRdfType(request.headers.get('accept'))
    if (!mediaType) throw new HttpError(406, 'not_acceptable', 'accept text/turtle, application/ld+json or application/n-triples')
    const body = await serializeRdf(quads, mediaType, base)
    return new Response(body, { headers: { 'content-type': `${mediaType}; charset=utf-8`, vary: 'Accept, Origin', ...headers } })
  }

  /** The description of one subscription service, in the RDF syntax asked for. */
  function describeService(request: Request, type: keyof typeof SUBSCRIPTION_SERVICES): Promise<Response> {
    return rdfResponse(request, subscriptionServiceQuads(cfg.baseUrl, type), cfg.baseUrl + SUBSCRIPTION_SERVICES[type])
  }

  /** GET of a stream: a topic's own (rel updatesViaStreamingHttp2023) or a subscribed channel's receiveFrom. */
  async function openStream(request: Request, path: string): Promise<Response> {
    const principal = await deps.authenticate(request)
    const origin = request.headers.get('origin') ?? undefined
    let channel: PendingChannel
    if (path.startsWith(TOPIC_STREAMS)) {
      const topic = resolveTarget(cfg.baseUrl, cfg.baseUrl + path.slice(TOPIC_STREAMS.length - 1)).path
      await authorizeListener(deps, access, principal, topic, origin)
      channel = {
        id: cfg.baseUrl + NOTIFY_PATHS.streaming + newKey(),
        type: 'StreamingHTTPChannel2023',
        topic,
        principal: listenerPrincipalOf(principal),
        holder: holderFor(deps, principal, request),
        ...(origin !== undefined ? { origin } : {}),
        features: { accept: notificationTypeFor(request.headers.get('accept') ?? undefined) },
        since: deps.now(),
      }
    } else {
      const key = path.slice(NOTIFY_PATHS.streaming.length)
      const waiting = CHANNEL_KEY.test(key) ? pending.peek(key) : undefined
      if (!waiting) throw new HttpError(404, 'not_found', 'no channel waits at this URL (each receiveFrom opens once, within 5 minutes): subscribe again')
      // The stream is the subscriber's: the same agent must fetch it, with credentials as for the subscription.
      if (!sameAgent(waiting.principal, listenerPrincipalOf(principal)))
        throw notTheSubscriber(principal, 'this stream belongs to the agent that subscribed: fetch it with the same credentials')
      channel = pending.take(key)!
    }
    // its client's channels waiting for their connection count too
    checkRoom(channels, channel.holder, pending.countOf(channel.holder.client))
    const { listener, response } = streamListener(channel, channels)
    await channels.open(listener)
    return response
  }

  /** DELETE of a channel id (§unsubscribing): its subscriber or the owner ends it. */
  async function unsubscribe(request: Request, path: string): Promise<Response> {
    const principal = listenerPrincipalOf(await deps.authenticate(request))
    const id = cfg.baseUrl + path
    const key = path.slice(path.lastIndexOf('/') + 1)
    const open = channels.get(id)
    const waiting = open ? undefined : pending.peek(key)
    const channel = open ?? (waiting?.id === id ? waiting : undefined)
    if (!channel) throw new HttpError(404, 'not_found', 'no open channel has this id')
    const isOwner = principal.webid === ownerWebIdOf(cfg.baseUrl)
    if (!isOwner && !sameAgent(channel.principal, principal))
      throw notTheSubscriber(principal, 'only the agent that subscribed (or the pod owner) can end this channel')
    if (open) channels.end(id, 'unsubscribed')
    else pending.drop(key)
    return new Response(null, { status: 204 })
  }

  /**
   * A WebSocket handshake: at the legacy solid-0.1 socket (its agent from the Updates-Via capability, or
   * anonymous), or at a WebSocketChannel2023 receiveFrom, where the waiting channel opens on it.
   */
  async function openSocket(request: Request, path: string): Promise<SocketSession | Response> {
    if (path === NOTIFY_PATHS.legacy) {
      const principal = await deps.legacyCapabilities.principalOf(new URL(request.url).searchParams.get('auth'))
      const holder = holderOf(principal ?? ANONYMOUS, deps.clientAddresses.of(request), ownerWebIdOf(cfg.baseUrl))
      return legacySocket({ baseUrl: cfg.baseUrl, channels, waitingOf: pending.countOf, now: deps.now }, principal, holder, request)
    }
    const key = path.startsWith(NOTIFY_PATHS.webSocket) ? path.slice(NOTIFY_PATHS.webSocket.length) : ''
    const channel = CHANNEL_KEY.test(key) ? pending.take(key) : undefined
    if (!channel)
      return toResourceResponse(request)(
        new HttpError(404, 'not_found', 'no channel waits at this URL (each receiveFrom opens once, within 5 minutes): subscribe again'),
      )
    // Counted again as it opens: the caps may have filled since it was subscribed to
    const refused = roomRefusal(channels, channel.holder, pending.countOf(channel.holder.client))
    if (refused) return toResourceResponse(request)(refused)
    return {
      open(ws) {
        void channels.open(socketListener(channel, ws, channels))
      },
      message() {
        /* WebSocketChannel2023 clients only listen */
      },
      close() {
        channels.end(channel.id, 'closed')
      },
    }
  }

  const plugin = new Elysia({ name: 'notify' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toResourceResponse(request)))
    .post(NOTIFY_PATHS.webSocket, ({ request }) => subscribe(request, 'WebSocketChannel2023'), { parse: 'none' })
    .post(NOTIFY_PATHS.streaming, ({ request }) => subscribe(request, 'StreamingHTTPChannel2023'), { parse: 'none' })
    .post(NOTIFY_PATHS.webhook, ({ request }) => subscribeWebhook(request), { parse: 'none' })
    // The pod's key document: whoever receives a webhook checks its signature (RFC 9421) with this key
    .get(NOTIFY_PATHS.webhookKey, async ({ request }) =>
      rdfResponse(request, await deps.podKey.documentQuads(), deps.webhooks.sender, { 'cache-control': 'public, max-age=300' }),
    )
    .get(NOTIFY_PATHS.webSocket, ({ request }) => describeService(request, 'WebSocketChannel2023'))
    .get(NOTIFY_PATHS.streaming, ({ request }) => describeService(request, 'StreamingHTTPChannel2023'))
    .get(NOTIFY_PATHS.webhook, ({ request }) => describeService(request, 'WebhookChannel2023'))
    .get(`${NOTIFY_PATHS.streaming}*`, ({ request }) => openStream(request, new URL(request.url).pathname))
    .delete(`${NOTIFY_PATHS.base}*`, ({ request }) => unsubscribe(request, new URL(request.url).pathname), { parse: 'none' })
  return { plugin, openSocket }
}
