// The subscription services (Solid Notifications Protocol §subscription): who asks, for which topic, with
// Read of it under the pod's one decision, or the RS's own refusal.

import type { Deps } from '../deps.ts'
import { refusal, type HttpError } from '../http/errors.ts'
import { decodeUtf8, readRequestBody } from '../auth/request-body.ts'
import { aclOf } from '../store/acl-names.ts'
import { isAuthenticated, type Principal } from '../auth/principal.ts'
import type { AccessControl } from '../policy/access-control.ts'
import { listenerPrincipalOf, type ChannelType, type ListenerPrincipal } from '../channels/listener.ts'
import { MAX_SUBSCRIPTION_BYTES, parseSubscriptionRequest, type SubscriptionRequest } from '../channels/subscription-request.ts'

/** A subscription that passed: the request, and who made it from where. */
export interface Subscriber {
  readonly request: SubscriptionRequest
  readonly principal: ListenerPrincipal
  readonly origin?: string
}

/** Refuses as the RS refuses a read of the topic: 401 with every challenge, or 403. */
export async function authorizeListener(deps: Pick<Deps, 'cfg'>, access: AccessControl, principal: Principal, topic: string, origin: string | undefined): Promise<void> {
  const url = deps.cfg.baseUrl + topic
  await access.authorize(principal, url, [{ url, modes: ['read'] }], origin, `<${deps.cfg.baseUrl + aclOf(topic)}>; rel="acl"`)
}

/** 503 too_many_channels once the pod holds --max-channels open channels. */
export function checkRoom(channels: Pick<Deps['channels'], 'hasRoom'>): void {
  if (!channels.hasRoom()) throw refusal('too_many_channels', 'the pod has as many notification channels open as it keeps; retry in a minute', { headers: { 'retry-after': '60' } })
}

/** 401 to an anonymous requester, 403 to another agent: a channel is its subscriber's (and, to end it, the owner's). */
export function notTheSubscriber(principal: Pick<Principal, 'webid' | 'keys'>, what: string): HttpError {
  return isAuthenticated(principal) ? refusal('forbidden', what) : refusal('unauthenticated', what)
}

/** A POST to the subscription service of `service`: authenticated, parsed, and allowed Read of its topic. */
export async function acceptSubscription(deps: Pick<Deps, 'cfg' | 'authenticate' | 'now' | 'channels'>, access: AccessControl,
  request: Request, service: ChannelType): Promise<Subscriber> {
  const principal = await deps.authenticate(request)
  // a signed request's Content-Digest is checked against the bytes before they are read as a request (RFC 9530)
  const body = await readRequestBody({ request, principal }, MAX_SUBSCRIPTION_BYTES, 'a subscription request')
  const sub = parseSubscriptionRequest({ body: decodeUtf8(body.bytes), contentType: body.contentType ?? null, service, baseUrl: deps.cfg.baseUrl, now: deps.now() })
  const origin = request.headers.get('origin') ?? undefined
  await authorizeListener(deps, access, principal, sub.topic, origin)
  checkRoom(deps.channels)
  return { request: sub, principal: listenerPrincipalOf(principal), ...(origin !== undefined ? { origin } : {}) }
}
