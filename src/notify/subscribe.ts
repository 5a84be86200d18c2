// The subscription services (Solid Notifications Protocol §subscription): who asks, for which topic, with
// Read of it under the pod's one decision, or the RS's own refusal.

import type { Deps } from '../deps.ts'
import { HttpError, refusal } from '../http/errors.ts'
import { decodeUtf8, readRequestBody } from '../auth/request-body.ts'
import { aclOf } from '../store/acl-names.ts'
import { isAuthenticated, type Principal } from '../auth/principal.ts'
import { challengesFor, type AccessControl } from '../policy/access-control.ts'
import { acceptSignatureFor } from '../auth/httpsig/http-sig.ts'
import { ownerWebIdOf } from '../config.ts'
import { listenerPrincipalOf, type ChannelType, type ListenerPrincipal } from '../channels/listener.ts'
import { holderOf, type ChannelHolder } from '../channels/channel-holder.ts'
import { MAX_SUBSCRIPTION_BYTES, parseSubscriptionRequest, type SubscriptionRequest } from '../channels/subscription-request.ts'

/** A subscription that passed: the request, and who made it from where. */
export interface Subscriber {
  readonly request: SubscriptionRequest
  readonly principal: ListenerPrincipal
  readonly holder: ChannelHolder
  readonly origin?: string
}

/** The holder of a channel `principal` asks for with `request` (its client address when anonymous). */
export const holderFor = (deps: Pick<Deps, 'cfg' | 'clientAddresses'>, principal: Principal, request: Request): ChannelHolder =>
  holderOf(principal, deps.clientAddresses.of(request), ownerWebIdOf(deps.cfg.baseUrl))

/** Refuses as the RS refuses a read of the topic: 401 with every challenge, or 403. */
export async function authorizeListener(
  deps: Pick<Deps, 'cfg'>,
  access: AccessControl,
  principal: Principal,
  topic: string,
  origin: string | undefined,
): Promise<void> {
  const url = deps.cfg.baseUrl + topic
  await access.authorize(principal, url, [{ url, modes: ['read'] }], origin, `<${deps.cfg.baseUrl + aclOf(topic)}>; rel="acl"`)
}

/**
 * 429 too_many_client_channels once the holder's client has --max-channels-per-client channels (open, or
 * `waiting` for their connection); 503 too_many_channels once its pool (the owner's, or everyone else's) is full.
 */
export function roomRefusal(channels: Pick<Deps['channels'], 'noRoomFor'>, holder: ChannelHolder, waiting = 0): HttpError | undefined {
  const noRoom = channels.noRoomFor(holder, waiting)
  if (noRoom === 'client')
    return refusal(
      'too_many_client_channels',
      'this client has as many notification channels open or waiting as the pod gives one client; end one (DELETE its id, close its socket or stream) or retry in a minute',
      { headers: { 'retry-after': '60' } },
    )
  if (noRoom === 'pod')
    return refusal('too_many_channels', 'the pod has as many notification channels open as it keeps; retry in a minute', { headers: { 'retry-after': '60' } })
  return undefined
}

export function checkRoom(channels: Pick<Deps['channels'], 'noRoomFor'>, holder: ChannelHolder, waiting = 0): void {
  const refused = roomRefusal(channels, holder, waiting)
  if (refused) throw refused
}

/**
 * A webhook delivers to a third party on the pod's behalf and is kept on disk across restarts: only an
 * authenticated agent may leave one (401 with the challenges of the subscription service otherwise).
 */
function anonymousWebhookRefusal(request: Request): HttpError {
  return new HttpError(
    401,
    'unauthenticated',
    "a webhook channel is stored and posts on the pod's behalf: subscribe as an authenticated agent (a DPoP-bound Solid-OIDC token, a UMA access token, or an HttpSig signature); anonymous clients may use a WebSocket or streaming channel",
    { headers: { 'www-authenticate': challengesFor(new URL(request.url).pathname), 'accept-signature': acceptSignatureFor(request.headers) } },
  )
}

/** 401 to an anonymous requester, 403 to another agent: a channel is its subscriber's (and, to end it, the owner's). */
export function notTheSubscriber(principal: Pick<Principal, 'webid' | 'keys'>, what: string): HttpError {
  return isAuthenticated(principal) ? refusal('forbidden', what) : refusal('unauthenticated', what)
}

/** A POST to the subscription service of `service`: authenticated, parsed, and allowed Read of its topic. */
export async function acceptSubscription(
  deps: Pick<Deps, 'cfg' | 'authenticate' | 'now' | 'channels' | 'clientAddresses'>,
  access: AccessControl,
  request: Request,
  service: ChannelType,
  waitingOf: (client: string) => number = () => 0,
): Promise<Subscriber> {
  const principal = await deps.authenticate(request)
  if (service === 'WebhookChannel2023' && !isAuthenticated(principal)) throw anonymousWebhookRefusal(request)
  // a signed request's Content-Digest is checked against the bytes before they are read as a request (RFC 9530)
  const body = await readRequestBody({ request, principal }, MAX_SUBSCRIPTION_BYTES, 'a subscription request')
  const sub = parseSubscriptionRequest({
    body: decodeUtf8(body.bytes),
    contentType: body.contentType ?? null,
    service,
    baseUrl: deps.cfg.baseUrl,
    now: deps.now(),
  })
  const origin = request.headers.get('origin') ?? undefined
  await authorizeListener(deps, access, principal, sub.topic, origin)
  const holder = holderFor(deps, principal, request)
  checkRoom(deps.channels, holder, waitingOf(holder.client))
  return { request: sub, principal: listenerPrincipalOf(principal), holder, ...(origin !== undefined ? { origin } : {}) }
}
