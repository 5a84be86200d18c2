// Discovery (Solid Notifications Protocol §discovery): the storage description names one subscription
// service per channel type, with the features each honours.

import type { Quad } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { NOTIFY, RDF } from '../rdf/namespaces.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import type { ChannelType } from './listener.ts'

const { namedNode, quad } = DataFactory

/** The subscription services, by the channel type each opens. */
export const SUBSCRIPTION_SERVICES: Readonly<Record<Exclude<ChannelType, 'solid-0.1'>, string>> = {
  WebSocketChannel2023: NOTIFY_PATHS.webSocket,
  StreamingHTTPChannel2023: NOTIFY_PATHS.streaming,
  WebhookChannel2023: NOTIFY_PATHS.webhook,
}

export const CHANNEL_FEATURES = ['state', 'startAt', 'endAt', 'rate', 'accept'] as const

/** The triples describing one service (`subject` names it as a subscription of the storage description). */
export function subscriptionServiceQuads(baseUrl: string, type: keyof typeof SUBSCRIPTION_SERVICES, subject?: string): Quad[] {
  const service = namedNode(baseUrl + SUBSCRIPTION_SERVICES[type])
  return [
    ...(subject ? [quad(namedNode(subject), namedNode(NOTIFY('subscription')), service)] : []),
    quad(service, namedNode(RDF('type')), namedNode(NOTIFY('SubscriptionService'))),
    quad(service, namedNode(NOTIFY('channelType')), namedNode(NOTIFY(type))),
    ...CHANNEL_FEATURES.map(f => quad(service, namedNode(NOTIFY('feature')), namedNode(NOTIFY(f)))),
  ]
}

/** Every service, as the storage description `subject` lists them. */
export const allSubscriptionServiceQuads = (baseUrl: string, subject: string): Quad[] =>
  (Object.keys(SUBSCRIPTION_SERVICES) as (keyof typeof SUBSCRIPTION_SERVICES)[]).flatMap(t => subscriptionServiceQuads(baseUrl, t, subject))

/** The StreamingHTTPChannel2023 stream of one topic, linked from the topic itself (rel updatesViaStreamingHttp2023). */
export const topicStreamPath = (topicPath: string) => `${NOTIFY_PATHS.streaming}topics${topicPath}`
