// The webhook delivery worker: sends each channel's outbox in order through the guarded poster, signed by the
// pod (RFC 9421), deciding access again just before each send; retries with backoff, gives up on an entry after
// a day and drops a channel whose receiver has failed for three. Bounded: outbox per channel, sends in flight.

import type { Store } from '../store/open-store.ts'
import type { Poster } from '../fetch/guarded-post.ts'
import type { HttpError } from '../http/errors.ts'
import type { PodKeys } from '../auth/httpsig/pod-key.ts'
import { signRequest } from '../auth/httpsig/sign-request.ts'
import { contentDigestOf } from '../auth/httpsig/content-digest.ts'
import { describeCause, log } from '../log.ts'
import type { ChannelRegistry } from './channel-registry.ts'
import { serializeNotification } from './notification-message.ts'
import {
  deleteOutboxEntries,
  deleteTrouble,
  getOutboxEntry,
  putTrouble,
  type OutboxEntry,
  type WebhookSubscription,
  type WebhookTrouble,
} from './webhook-records.ts'

/** Retry after 1 s, doubling each time, to at most 10 minutes between attempts. */
export const FIRST_RETRY_MS = 1000
export const MAX_RETRY_MS = 10 * 60_000
/** A notification not delivered within a day is given up (and counted as lost on the dashboard). */
export const GIVE_UP_MS = 24 * 3600_000
/** A receiver with no success for three days loses its channel. */
export const DROP_AFTER_MS = 3 * 24 * 3600_000
/** Entries a channel's outbox holds; past it the oldest are dropped and counted as lost. */
export const MAX_OUTBOX = 1000
/** Deliveries in flight at once, all channels together (each holds one connection for at most the timeout). */
export const MAX_CONCURRENT_DELIVERIES = 16

export const backoffMs = (attempt: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1))

interface ChannelState {
  readonly sub: WebhookSubscription
  /** Outbox keys written and synced, oldest first; the first is the one being (or next to be) sent. */
  readonly keys: string[]
  attempt: number
  notBefore: number
  busy: boolean
  lastSentAt?: number
  trouble?: WebhookTrouble
}

export interface DeliveryDeps {
  readonly store: Store
  readonly channels: Pick<ChannelRegistry, 'get' | 'end' | 'verdictFor'>
  readonly poster: Poster
  readonly podKey: PodKeys
  readonly now: () => number
}

/** The request the pod sends: the notification, its RFC 9530 digest, and an RFC 9421 signature over them. */
export async function deliveryRequest(podKey: PodKeys, sendTo: string, body: string, contentType: string, now: number) {
  const key = await podKey.current()
  const headers: Record<string, string> = { 'content-type': contentType, 'content-digest': contentDigestOf(body) }
  const signature = signRequest({
    method: 'POST',
    targetUri: sendTo,
    headers: new Headers(headers),
    covered: ['@method', '@target-uri', 'content-type', 'content-digest'],
    keyid: key.keyid,
    key: key.privateKey,
    created: Math.floor(now / 1000),
    nonce: crypto.randomUUID(),
  })
  return { headers: { ...headers, ...signature }, body }
}

export function makeDeliveryWorker(deps: DeliveryDeps) {
  const { store, channels, poster, podKey, now } = deps
  const states = new Map<string, ChannelState>()
  const running = new Set<Promise<void>>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = true

  function setTrouble(state: ChannelState, t: WebhookTrouble | undefined) {
    state.trouble = t
    const write = t ? putTrouble(store, state.sub.key, t, now()) : deleteTrouble(store, state.sub.key)
    write.catch((err: unknown) => log.warn('webhook.trouble_not_saved', { cause: describeCause(err) }))
  }

  function troubleOf(state: ChannelState, change: Partial<WebhookTrouble>): WebhookTrouble {
    const at = now()
    const { sub } = state
    return {
      id: sub.id,
      topic: sub.topic,
      sendTo: sub.sendTo,
      ...(sub.principal.webid !== undefined ? { webid: sub.principal.webid } : {}),
      state: 'failing',
      reason: '',
      since: at,
      lastAttempt: at,
      lost: 0,
      ...state.trouble,
      ...change,
    }
  }

  /** Counts notifications the channel will never get, so the owner sees it. */
  function noteLost(state: ChannelState, count: number, why: string) {
    log.warn('webhook.notifications_lost', { channel: state.sub.id, count, why })
    setTrouble(state, troubleOf(state, { lost: (state.trouble?.lost ?? 0) + count, reason: state.trouble?.reason || why }))
  }

  function dropHead(state: ChannelState, count = 1) {
    void deleteOutboxEntries(store, state.keys.splice(0, count)).catch((err: unknown) =>
      log.warn('webhook.outbox_delete_failed', { cause: describeCause(err) }),
    )
  }

  async function failed(state: ChannelState, reason: string) {
    const at = now()
    state.attempt++
    state.notBefore = at + backoffMs(state.attempt)
    const first = state.trouble?.state !== 'failing'
    const t = troubleOf(state, { reason, lastAttempt: at, ...(first ? { since: at } : {}) })
    if (at - t.since >= DROP_AFTER_MS) {
      log.warn('webhook.dropped', { channel: state.sub.id, reason, failingSinceMs: at - t.since })
      setTrouble(state, { ...t, state: 'dropped' })
      channels.end(state.sub.id, 'delivery_failed')
      return
    }
    if (first) log.warn('webhook.failing', { channel: state.sub.id, reason })
    else log.debug('webhook.retry_failed', { channel: state.sub.id, reason, attempt: state.attempt })
    setTrouble(state, t)
  }

  /** One step for the channel's first entry: send it, retry it later, or drop it. */
  async function deliverHead(state: ChannelState): Promise<void> {
    const { sub } = state
    const listener = channels.get(sub.id)
    if (!listener) {
      states.delete(sub.key)
      return
    } // ended meanwhile: its records went with it
    const at = now()
    if (sub.features.endAt !== undefined && sub.features.endAt <= at) {
      channels.end(sub.id, 'end_at')
      return
    }
    const rate = sub.features.rate
    if (rate && state.lastSentAt !== undefined && at < state.lastSentAt + rate) {
      state.notBefore = state.lastSentAt + rate
      return
    }
    // Solid Notifications §rate: changes within the interval are told as the latest one
    if (rate && state.keys.length > 1) dropHead(state, state.keys.length - 1)
    const found = await getOutboxEntry(store, state.keys[0]!, at)
    if (!found) {
      state.keys.shift()
      return
    }
    if (found.expired) {
      dropHead(state)
      noteLost(state, 1, `not delivered within ${GIVE_UP_MS / 3600_000} h`)
      return
    }
    const entry: OutboxEntry = found.entry
    // Written to the outbox before the registry decided anything: decided again now, with today's access
    const verdict = await channels.verdictFor(listener, entry.change)
    if (verdict === 'not_this_one') {
      dropHead(state)
      return
    }
    if (verdict !== 'allowed') {
      channels.end(sub.id, verdict)
      return
    }
    const request = await deliveryRequest(podKey, sub.sendTo, serializeNotification(entry.message, sub.features.accept), sub.features.accept, at)
    let reason: string
    try {
      const { status, ms } = await poster.post(sub.sendTo, request)
      if (status >= 200 && status < 300) {
        dropHead(state)
        state.attempt = 0
        state.lastSentAt = now()
        if (state.trouble?.state === 'failing') {
          log.info('webhook.recovered', { channel: sub.id })
          setTrouble(state, undefined)
        }
        log.debug('webhook.delivered', { channel: sub.id, status, ms })
        return
      }
      reason = `answered ${status}`
    } catch (err) {
      // The poster's cause names the step (refused address, no answer in time, no connection), never a body
      reason = ((err as HttpError).cause as Error | undefined)?.message ?? describeCause(err)
    }
    if (states.get(sub.key) === state) await failed(state, reason)
  }

  function pump() {
    if (stopped) return
    clearTimeout(timer)
    timer = undefined
    const at = now()
    let next = Infinity
    for (const state of states.values()) {
      if (state.busy || state.keys.length === 0) continue
      if (state.notBefore > at) {
        next = Math.min(next, state.notBefore)
        continue
      }
      if (running.size >= MAX_CONCURRENT_DELIVERIES) break // a finishing delivery pumps again
      state.busy = true
      const run: Promise<void> = deliverHead(state)
        .catch((err: unknown) => {
          log.error('webhook.delivery_step_failed', { channel: state.sub.id, cause: describeCause(err) })
          state.notBefore = now() + backoffMs(++state.attempt)
        })
        .finally(() => {
          state.busy = false
          running.delete(run)
          pump()
        })
      running.add(run)
    }
    if (next !== Infinity) {
      timer = setTimeout(pump, Math.max(0, next - at))
      timer.unref?.()
    }
  }

  return {
    /** Delivers for `sub` from now on, starting with `keys` (its outbox left on disk) and its trouble record. */
    track(sub: WebhookSubscription, keys: readonly string[] = [], trouble?: WebhookTrouble): void {
      states.set(sub.key, { sub, keys: [...keys], attempt: 0, notBefore: 0, busy: false, ...(trouble ? { trouble } : {}) })
      if (keys.length > MAX_OUTBOX) this.enqueue(sub.key, [])
    },
    /** Forgets the channel (its records are the caller's to delete). */
    forget(channelKey: string): void {
      states.delete(channelKey)
    },
    /** Outbox entries now on disk for the channel; past MAX_OUTBOX the oldest waiting ones are dropped. */
    enqueue(channelKey: string, keys: readonly string[]): void {
      const state = states.get(channelKey)
      if (!state) return
      state.keys.push(...keys)
      const over = state.keys.length - MAX_OUTBOX
      if (over > 0) {
        // the head may be on its way: the oldest after it go
        const gone = state.keys.splice(state.busy ? 1 : 0, over)
        void deleteOutboxEntries(store, gone).catch((err: unknown) => log.warn('webhook.outbox_delete_failed', { cause: describeCause(err) }))
        noteLost(state, over, `more than ${MAX_OUTBOX} notifications waiting`)
      }
      pump()
    },
    start(): void {
      stopped = false
      pump()
    },
    /** Stops sending; resolves once the deliveries in flight are done (each within the poster's timeout). */
    async stop(): Promise<void> {
      stopped = true
      clearTimeout(timer)
      await Promise.allSettled([...running])
    },
  }
}

export type DeliveryWorker = ReturnType<typeof makeDeliveryWorker>
