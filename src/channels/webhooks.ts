// WebhookChannel2023 (Solid Notifications): subscriptions kept on disk and registered again at start, each
// change on a watched topic written to the outbox in the write's own batch (an acknowledged write never loses
// its notification to a crash), and the delivery worker that sends them.

import type { Store } from '../store/open-store.ts'
import type { ResourceChange } from '../store/change-feed.ts'
import type { WriteOp } from '../store/group-commit.ts'
import { refusal } from '../http/errors.ts'
import { NOTIFY_PATHS } from '../http/pod-paths.ts'
import type { Poster } from '../fetch/guarded-post.ts'
import type { PodKeys } from '../auth/httpsig/pod-key.ts'
import { describeCause, log } from '../log.ts'
import { ownerWebIdOf } from '../config.ts'
import { isAuthenticated } from '../auth/principal.ts'
import { holderOf } from './channel-holder.ts'
import type { ChannelRegistry } from './channel-registry.ts'
import type { ChannelFeatures, Listener, ListenerPrincipal } from './listener.ts'
import { notificationOf } from './notification-message.ts'
import { GIVE_UP_MS, makeDeliveryWorker } from './webhook-delivery.ts'
import {
  deleteOutboxEntries,
  deleteSubscription,
  deleteTrouble,
  outboxKey,
  outboxOp,
  putOutboxEntry,
  putSubscription,
  readOutboxKeys,
  readSubscriptions,
  readTroubles,
  type WebhookSubscription,
  type WebhookTrouble,
} from './webhook-records.ts'

/**
 * Webhook channels of agents other than the owner at most (each may keep up to MAX_OUTBOX notifications on
 * disk); the owner's are counted apart, up to as many, so strangers never take the owner's slots.
 */
export const MAX_WEBHOOKS = 1000

export interface WebhookRequest {
  /** Pod path of the topic, already allowed Read for `principal`. */
  readonly topic: string
  readonly principal: ListenerPrincipal
  readonly origin?: string
  readonly features: ChannelFeatures
  readonly sendTo: string
}

export interface WebhooksDeps {
  readonly store: Store
  readonly baseUrl: string
  readonly channels: ChannelRegistry
  readonly poster: Poster
  readonly podKey: PodKeys
  readonly now: () => number
}

const newKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
const seqOf = (key: string) => Number(key.slice(key.indexOf('\0') + 1))

export function makeWebhooks(deps: WebhooksDeps) {
  const { store, baseUrl, channels, now } = deps
  const worker = makeDeliveryWorker(deps)
  const byTopic = new Map<string, Map<string, WebhookSubscription>>()
  const ownerWebId = ownerWebIdOf(baseUrl)
  const isOwners = (sub: Pick<WebhookSubscription, 'principal'>) => sub.principal.webid === ownerWebId
  /** Registered webhooks, the owner's and everyone else's. */
  const counts = { owner: 0, others: 0 }
  const pool = (sub: Pick<WebhookSubscription, 'principal'>) => (isOwners(sub) ? 'owner' : 'others')
  /** The outbox keys each change was journaled under, until its batch is synced (then the worker may read them). */
  const journaled = new WeakMap<ResourceChange, { channel: string; key: string }[]>()
  let lastSeq = 0
  // Epoch µs, strictly increasing: keys sort in the order written, also across restarts
  const nextSeq = () => (lastSeq = Math.max(lastSeq + 1, now() * 1000))
  let detach: (() => void)[] = []

  /** Runs inside each resource write, before its batch: an outbox entry per webhook of the topic. */
  function journal(changes: readonly ResourceChange[]): WriteOp[] {
    const ops: WriteOp[] = []
    for (const change of changes) {
      const subs = byTopic.get(change.topic)
      if (!subs) continue
      const keys: { channel: string; key: string }[] = []
      let message
      for (const sub of subs.values()) {
        const { startAt, endAt } = sub.features
        if ((startAt !== undefined && startAt > change.published) || (endAt !== undefined && endAt <= change.published)) continue
        message ??= notificationOf(change, baseUrl)
        const key = outboxKey(sub.key, nextSeq())
        ops.push(outboxOp(store, key, { change, message }, change.published + GIVE_UP_MS))
        keys.push({ channel: sub.key, key })
      }
      if (keys.length > 0) journaled.set(change, keys)
    }
    return ops
  }

  /** The batch is on disk: its entries go to the worker. */
  function synced(changes: readonly ResourceChange[]): void {
    for (const change of changes) {
      for (const { channel, key } of journaled.get(change) ?? []) worker.enqueue(channel, [key])
    }
  }

  function listenerOf(sub: WebhookSubscription, features: ChannelFeatures): Listener {
    const { key: _key, sendTo: _sendTo, ...rest } = sub
    return {
      ...rest,
      type: 'WebhookChannel2023',
      features,
      // an anonymous webhook is refused, so its agent is the client whatever address it came from
      holder: holderOf(sub.principal, undefined, ownerWebId),
      send(message, change) {
        // A change of a resource write is in the outbox already; only the `state` catch-up of a new channel is not
        if (journaled.get(change)?.some(j => j.channel === sub.key)) return
        const key = outboxKey(sub.key, nextSeq())
        putOutboxEntry(store, key, { change, message }, now() + GIVE_UP_MS).then(
          () => worker.enqueue(sub.key, [key]),
          (err: unknown) => log.warn('webhook.outbox_write_failed', { channel: sub.id, cause: describeCause(err) }),
        )
      },
      close(reason) {
        unregister(sub)
        // Shutdown keeps the channel for the next start; any other end forgets it and what it was still owed
        if (reason === 'shutdown') return
        void deleteSubscription(store, sub.key, { keepTrouble: reason === 'delivery_failed' }).catch((err: unknown) =>
          log.warn('webhook.delete_failed', { channel: sub.id, cause: describeCause(err) }),
        )
      },
    }
  }

  function register(sub: WebhookSubscription, outbox: readonly string[] = [], trouble?: WebhookTrouble) {
    let subs = byTopic.get(sub.topic)
    if (!subs) byTopic.set(sub.topic, (subs = new Map()))
    subs.set(sub.key, sub)
    counts[pool(sub)]++
    worker.track(sub, outbox, trouble)
  }

  function unregister(sub: WebhookSubscription) {
    const subs = byTopic.get(sub.topic)
    if (subs?.delete(sub.key)) counts[pool(sub)]--
    if (subs?.size === 0) byTopic.delete(sub.topic)
    worker.forget(sub.key)
  }

  return {
    /**
     * Opens a webhook channel: `sendTo` is checked (https, a public address, not the pod), the channel is
     * stored, and from now on each change of the topic is kept until delivered. With `state`, a subscriber
     * holding another state is told at once.
     */
    async subscribe(req: WebhookRequest): Promise<WebhookSubscription> {
      const refused = await deps.poster.refusalOf(req.sendTo)
      if (refused) throw refusal('unsafe_send_to', `sendTo is refused (${refused}); the pod posts notifications only to https URLs on public addresses`)
      if (counts[pool(req)] >= MAX_WEBHOOKS)
        throw refusal('too_many_channels', `the pod keeps at most ${MAX_WEBHOOKS} webhook channels; retry later`, { headers: { 'retry-after': '60' } })
      const key = newKey()
      const { state: _state, ...kept } = req.features
      const sub: WebhookSubscription = {
        id: baseUrl + NOTIFY_PATHS.webhook + key,
        key,
        topic: req.topic,
        sendTo: req.sendTo,
        principal: req.principal,
        ...(req.origin !== undefined ? { origin: req.origin } : {}),
        features: kept,
        since: now(),
      }
      await putSubscription(store, sub)
      register(sub)
      await channels.open(listenerOf(sub, req.features))
      log.info('webhook.subscribed', { channel: sub.id, webid: sub.principal.webid })
      return sub
    },
    /** The key document URL that names the pod as the sender of its deliveries. */
    sender: baseUrl + NOTIFY_PATHS.webhookKey,
    /** Webhooks whose receiver fails, or that were dropped for it (the last 30 days), for the owner's dashboard. */
    async troubles(): Promise<WebhookTrouble[]> {
      return (await readTroubles(store, now())).map(t => t.trouble).sort((a, b) => a.since - b.since)
    },
    /** Registers the stored channels again, resumes their outbox, and starts delivering. */
    async start(): Promise<void> {
      const stored = await readSubscriptions(store, now())
      // Anonymous webhooks are refused (docs/architecture.md, notification limits): one an older version stored is forgotten
      const subs = stored.filter(sub => isAuthenticated(sub.principal))
      for (const sub of stored) {
        if (subs.includes(sub)) continue
        await deleteSubscription(store, sub.key, { keepTrouble: false })
        log.info('webhook.anonymous_dropped', { channel: sub.id })
      }
      const outbox = await readOutboxKeys(store)
      const troubles = new Map((await readTroubles(store, now())).map(t => [t.key, t.trouble]))
      for (const keys of outbox.values()) lastSeq = Math.max(lastSeq, seqOf(keys.at(-1)!))
      detach = [store.changes.journal(journal), store.changes.listen(synced)]
      for (const sub of subs) {
        register(sub, outbox.get(sub.key), troubles.get(sub.key))
        outbox.delete(sub.key)
        troubles.delete(sub.key)
        await channels.open(listenerOf(sub, sub.features))
      }
      // What belongs to no stored channel (one ended at its endAt while the pod was down) goes
      await deleteOutboxEntries(store, [...outbox.values()].flat())
      for (const [key, t] of troubles) if (t.state === 'failing') await deleteTrouble(store, key)
      if (subs.length > 0) log.info('webhook.resumed', { channels: subs.length })
      worker.start()
    },
    /** Stops delivering (what is left stays on disk for the next start). */
    async stop(): Promise<void> {
      for (const d of detach) d()
      detach = []
      await worker.stop()
    },
  }
}

export type Webhooks = ReturnType<typeof makeWebhooks>
