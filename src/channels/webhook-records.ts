// What the pod keeps on disk for WebhookChannel2023: the subscriptions (they survive a restart), the outbox
// of notifications not yet delivered, and the troubles the owner's dashboard shows. All in `store.records`.

import type { Store } from '../store/open-store.ts'
import { inSublevel } from '../store/sublevel.ts'
import type { WriteOp } from '../store/group-commit.ts'
import type { ResourceChange } from '../store/change-feed.ts'
import { deleteRecord, keyOf, NEVER, putRecord, readRecords, writeRecords } from '../store/records.ts'
import type { NotificationMessage } from './notification-message.ts'
import type { ChannelFeatures, ListenerPrincipal } from './listener.ts'

const SUBSCRIPTIONS = 'webhook'
const OUTBOX = 'webhook-out'
const TROUBLES = 'webhook-trouble'

/** A webhook channel as stored: what it takes to register it again after a restart. */
export interface WebhookSubscription {
  /** The channel id, `BASE/.notifications/WebhookChannel2023/<32 hex>`; the hex is its `key`. */
  readonly id: string
  readonly key: string
  readonly topic: string
  readonly sendTo: string
  readonly principal: ListenerPrincipal
  readonly origin?: string
  /** Without `state`: that is told once, when the channel opens. */
  readonly features: ChannelFeatures
  readonly since: number
}

/** One notification waiting for its channel's receiver. */
export interface OutboxEntry {
  readonly change: ResourceChange
  /** Built once, when the change was written: every retry sends the same `id`, so a receiver can drop a repeat. */
  readonly message: NotificationMessage
}

/** What the owner's dashboard shows of a webhook whose receiver fails (never what the receiver answered). */
export interface WebhookTrouble {
  readonly id: string
  readonly topic: string
  readonly sendTo: string
  readonly webid?: string
  /** `failing`: retried with backoff; `dropped`: ended after failing too long. */
  readonly state: 'failing' | 'dropped'
  /** The last failure: `answered 500`, `no answer within 5000 ms`, … */
  readonly reason: string
  /** Epoch ms of the first failure since the last success. */
  readonly since: number
  readonly lastAttempt: number
  /** Notifications the channel lost: past the outbox bound, or given up after the retry time. */
  readonly lost: number
}

/** An outbox key: the channel's key, then a sequence number fixed-width, so keys sort in the order written. */
export const outboxKey = (channelKey: string, seq: number) => `${channelKey}\0${String(seq).padStart(17, '0')}`
const channelOfOutboxKey = (key: string) => key.slice(0, key.indexOf('\0'))

export const putSubscription = (store: Store, s: WebhookSubscription) => putRecord(store, SUBSCRIPTIONS, s.key, s, s.features.endAt ?? NEVER)

export const readSubscriptions = async (store: Store, now: number) => (await readRecords<WebhookSubscription>(store, SUBSCRIPTIONS, now)).map(r => r.value)

/** The put of one outbox entry, for the batch of the write it tells of; it expires (is given up) at `giveUpAt`. */
export const outboxOp = (store: Store, key: string, entry: OutboxEntry, giveUpAt: number): WriteOp => ({
  type: 'put',
  key: keyOf(OUTBOX, key),
  value: { v: entry, exp: giveUpAt },
  ...inSublevel(store.records),
})

/** The entry at `key`: `expired` once its retry time is over, undefined when it is gone. */
export async function getOutboxEntry(store: Store, key: string, now: number): Promise<{ entry: OutboxEntry; expired: boolean } | undefined> {
  const rec = await store.records.get(keyOf(OUTBOX, key))
  return rec && { entry: rec.v as OutboxEntry, expired: rec.exp <= now }
}

export const putOutboxEntry = (store: Store, key: string, entry: OutboxEntry, giveUpAt: number) => putRecord(store, OUTBOX, key, entry, giveUpAt)

/**
 * Delivered or dropped entries. Not synced: a delete lost to a crash sends that notification again after the
 * restart (at-least-once; the receiver drops a repeat by its id), and a delivery costs no fsync.
 */
export const deleteOutboxEntries = (store: Store, keys: readonly string[]) => writeRecords(store, OUTBOX, [], keys, { sync: false })

/** Every outbox key on disk, in order, expired ones too (the worker gives those up with a log line). */
export async function readOutboxKeys(store: Store): Promise<Map<string, string[]>> {
  const prefix = `${OUTBOX}\0`
  const byChannel = new Map<string, string[]>()
  for await (const k of store.records.keys({ gt: prefix, lt: `${prefix}\uffff` })) {
    const key = k.slice(prefix.length)
    const channel = channelOfOutboxKey(key)
    let keys = byChannel.get(channel)
    if (!keys) byChannel.set(channel, (keys = []))
    keys.push(key)
  }
  return byChannel
}

/** The subscription and everything kept for it. */
export async function deleteSubscription(store: Store, key: string, o: { keepTrouble: boolean }): Promise<void> {
  await deleteRecord(store, SUBSCRIPTIONS, key)
  const prefix = `${OUTBOX}\0${key}\0`
  const keys: string[] = []
  for await (const k of store.records.keys({ gt: prefix, lt: `${prefix}\uffff` })) keys.push(k.slice(OUTBOX.length + 1))
  await writeRecords(store, OUTBOX, [], keys)
  if (!o.keepTrouble) await deleteRecord(store, TROUBLES, key)
}

/** How long the dashboard shows a dropped webhook. */
export const DROPPED_SHOWN_MS = 30 * 24 * 3600_000

export const putTrouble = (store: Store, key: string, t: WebhookTrouble, now: number) =>
  putRecord(store, TROUBLES, key, t, t.state === 'dropped' ? now + DROPPED_SHOWN_MS : NEVER, { sync: false })

export const deleteTrouble = (store: Store, key: string) => deleteRecord(store, TROUBLES, key, { sync: false })

export const readTroubles = async (store: Store, now: number) =>
  (await readRecords<WebhookTrouble>(store, TROUBLES, now)).map(r => ({ key: r.key, trouble: r.value }))
