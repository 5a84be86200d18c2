// Every open notification channel of the pod, by topic: each change the store publishes is decided again
// for each listener (the access it subscribed with may be gone) and sent, paced by the channel's `rate`.

import type { Store } from '../store/open-store.ts'
import type { ResourceChange } from '../store/change-feed.ts'
import { getMeta } from '../store/resources.ts'
import { defaultEtag, namesState } from '../store/resource-meta.ts'
import type { AccessDecider } from '../policy/access-decider.ts'
import type { SessionRevocations } from '../account/app-sessions.ts'
import { getAppSession } from '../account/app-sessions.ts'
import { makeSerialQueue } from '../lib/serial-queue.ts'
import { describeCause, log } from '../log.ts'
import { notificationOf, type NotificationMessage } from './notification-message.ts'
import type { EndReason, Listener, ListenerPrincipal } from './listener.ts'
import type { ChannelHolder } from './channel-holder.ts'
import { makeBufferBudget } from './buffer-budget.ts'

/** What the owner's dashboard shows of a channel: never its receiveFrom capability. */
export interface ChannelSummary {
  readonly id: string
  readonly type: Listener['type']
  readonly topic: string
  readonly webid?: string
  readonly clientId?: string
  readonly keys: readonly string[]
  readonly since: number
  readonly endAt?: number
}

export interface ChannelRegistryDeps {
  readonly store: Store
  readonly baseUrl: string
  readonly decider: Pick<AccessDecider, 'decide'>
  readonly revocations: Pick<SessionRevocations, 'isRevoked'>
  readonly now: () => number
  /**
   * Open channels of agents other than the owner at most, all types together (`--max-channels`): past it a
   * subscription is refused (503 with Retry-After), so a flood of subscriptions cannot take the pod's memory.
   * Each costs a few KB. The owner's channels are counted apart, up to as many: strangers never lock them out.
   */
  readonly maxChannels: number
  /** Channels one client other than the owner may hold (`--max-channels-per-client`): past it 429. */
  readonly maxChannelsPerClient: number
  /** Bytes all channels together may hold unsent (`--channel-buffer-bytes`), see buffer-budget.ts. */
  readonly bufferBytes: number
}

/** Why a channel cannot open now: its client holds its share, or the pool it counts in is full. */
export type NoRoom = 'client' | 'pod'

/** Access as decided now for a listener: may it still hear of this topic, and of this member? */
export type Verdict = 'allowed' | 'not_this_one' | EndReason

export function makeChannelRegistry(deps: ChannelRegistryDeps) {
  const { store, baseUrl, decider, now } = deps
  const byTopic = new Map<string, Set<Listener>>()
  const byId = new Map<string, Listener>()
  /** Rate-paced channels: the latest change held back, and when it goes out. */
  const held = new Map<string, { message: NotificationMessage; change: ResourceChange; timer: ReturnType<typeof setTimeout> }>()
  const lastSent = new Map<string, number>()
  // Changes are told in commit order: a decision that waits (a remote group document) holds the next batch.
  const inOrder = makeSerialQueue()
  const buffers = makeBufferBudget(deps.bufferBytes)
  /** Open channels per client (never the owner's), and in each pool. */
  const perClient = new Map<string, number>()
  const pools = { owner: 0, others: 0 }

  function count(h: ChannelHolder, by: 1 | -1): void {
    if (h.owner) {
      pools.owner += by
      return
    }
    pools.others += by
    const n = (perClient.get(h.client) ?? 0) + by
    if (n > 0) perClient.set(h.client, n)
    else perClient.delete(h.client)
  }

  function add(listener: Listener): void {
    if (byId.has(listener.id)) return
    byId.set(listener.id, listener)
    count(listener.holder, 1)
    let set = byTopic.get(listener.topic)
    if (!set) byTopic.set(listener.topic, (set = new Set()))
    set.add(listener)
  }

  /** Forgets the channel and closes its transport with `reason`; false when it was not open. */
  function end(id: string, reason: EndReason): boolean {
    const listener = byId.get(id)
    if (!listener) return false
    byId.delete(id)
    count(listener.holder, -1)
    const set = byTopic.get(listener.topic)
    set?.delete(listener)
    if (set?.size === 0) byTopic.delete(listener.topic)
    const h = held.get(id)
    if (h) {
      clearTimeout(h.timer)
      held.delete(id)
    }
    lastSent.delete(id)
    try {
      listener.close(reason)
    } catch (err) {
      log.warn('notify.close_failed', { channel: listener.type, cause: describeCause(err) })
    }
    log.info('notify.channel_ended', { channel: listener.type, topic: listener.topic, reason })
    return true
  }

  // A listener's identity as a string, made once per listener: every change compares it for each of them
  const principalKeys = new WeakMap<Listener, string>()
  const principalKey = (l: Listener) => {
    let key = principalKeys.get(l)
    if (key === undefined) {
      const p = l.principal
      principalKeys.set(l, (key = JSON.stringify([p.webid, p.clientId, p.issuer, p.keys, p.permissions, p.session, l.origin])))
    }
    return key
  }

  async function mayRead(p: ListenerPrincipal, url: string, origin: string | undefined): Promise<boolean> {
    return (await decider.decide(p, url, origin)).modes.has('read')
  }

  /** Is the listener's app session (a token of this pod's OP) still live: not revoked, not ended, not expired? */
  async function sessionLive(p: ListenerPrincipal, at: number): Promise<boolean> {
    if (p.session === undefined) return true
    if (await deps.revocations.isRevoked(p.session, at)) return false
    return (await getAppSession(store, p.session, at)) !== undefined
  }

  /**
   * Topic Read decides whether the channel goes on; a container's Add or Remove also needs Read of the
   * member, so a notification never names a resource the listener could not read.
   */
  async function verdictFor(p: ListenerPrincipal, origin: string | undefined, change: ResourceChange, at: number): Promise<Verdict> {
    if (!(await sessionLive(p, at))) return 'session_revoked'
    if (!(await mayRead(p, baseUrl + change.topic, origin))) return 'access_lost'
    if (change.object !== change.topic && !(await mayRead(p, baseUrl + change.object, origin))) return 'not_this_one'
    return 'allowed'
  }

  function sendPaced(listener: Listener, message: NotificationMessage, change: ResourceChange, at: number) {
    const rate = listener.features.rate
    if (rate === undefined || rate <= 0) return listener.send(message, change)
    const last = lastSent.get(listener.id)
    const pending = held.get(listener.id)
    if (pending) {
      held.set(listener.id, { ...pending, message, change })
      return
    }
    if (last === undefined || at - last >= rate) {
      lastSent.set(listener.id, at)
      return listener.send(message, change)
    }
    const timer = setTimeout(
      () => {
        const h = held.get(listener.id)
        held.delete(listener.id)
        if (!h || !byId.has(listener.id)) return
        lastSent.set(listener.id, now())
        listener.send(h.message, h.change)
      },
      last + rate - at,
    )
    timer.unref?.()
    held.set(listener.id, { message, change, timer })
  }

  async function tell(changes: readonly ResourceChange[]): Promise<void> {
    const at = now()
    for (const change of changes) {
      const set = byTopic.get(change.topic)
      if (!set || set.size === 0) continue
      const message = notificationOf(change, baseUrl)
      // One decision per distinct listener identity: a thousand sockets of one app cost one decision. Once
      // settled it is kept as its value, so the other 999 are sent to without a turn of the microtask queue each.
      const verdicts = new Map<string, Verdict | Promise<Verdict>>()
      for (const listener of [...set]) {
        // ended while this change was told (shed by the buffer budget, access lost)
        if (!byId.has(listener.id)) continue
        const f = listener.features
        if (f.endAt !== undefined && f.endAt <= at) {
          end(listener.id, 'end_at')
          continue
        }
        if (f.startAt !== undefined && f.startAt > at) continue
        const key = principalKey(listener)
        let v = verdicts.get(key)
        if (v === undefined) verdicts.set(key, (v = verdictFor(listener.principal, listener.origin, change, at)))
        if (typeof v !== 'string') {
          v = await v
          verdicts.set(key, v)
          // ended while its decision was awaited
          if (!byId.has(listener.id)) continue
        }
        if (v === 'allowed') sendPaced(listener, message, change, at)
        else if (v !== 'not_this_one') end(listener.id, v)
      }
    }
  }

  // A change is heard as its write finishes, before the request that made it is answered: told at once, its
  // frames went out ahead of that answer (a PUT to a document 1,000 subscribers hear waited for the 1,000 writes).
  // Told from the next turn of the event loop instead, after this turn's answers, still in commit order.
  let heard: (readonly ResourceChange[])[] = []
  const tellHeard = () => {
    const batches = heard
    heard = []
    for (const changes of batches) void inOrder(() => tell(changes)).catch((err: unknown) => log.error('notify.tell_failed', { cause: describeCause(err) }))
  }
  const stopListening = store.changes.listen(changes => {
    if (byTopic.size === 0) return
    if (heard.push(changes) === 1) setImmediate(tellHeard)
  })

  return {
    end,
    /** The open channel with this id. */
    get: (id: string) => byId.get(id),
    /**
     * The decision each change gets, made now for `listener`: a notification kept on disk (a webhook's outbox)
     * is decided again when it is sent, with the access of that moment.
     */
    verdictFor: (listener: Listener, change: ResourceChange): Promise<Verdict> => verdictFor(listener.principal, listener.origin, change, now()),
    /** May `p` listen to `topic` now: its app session live and Read of the topic (a legacy `sub`, before it is acked). */
    mayListen: async (p: ListenerPrincipal, topic: string, origin: string | undefined): Promise<boolean> =>
      (await sessionLive(p, now())) && (await mayRead(p, baseUrl + topic, origin)),
    /** Open channels, oldest first. */
    list: (): ChannelSummary[] =>
      [...byId.values()]
        .sort((a, b) => a.since - b.since)
        .map(l => ({
          id: l.id,
          type: l.type,
          topic: l.topic,
          keys: l.principal.keys,
          since: l.since,
          ...(l.principal.webid !== undefined ? { webid: l.principal.webid } : {}),
          ...(l.principal.clientId !== undefined ? { clientId: l.principal.clientId } : {}),
          ...(l.features.endAt !== undefined ? { endAt: l.features.endAt } : {}),
        })),
    get size() {
      return byId.size
    },
    /** Open channels of `client` (the owner's are not counted per client). */
    countOf: (client: string) => perClient.get(client) ?? 0,
    /**
     * Why one more channel of `holder` could not open now, or undefined when it can; `waiting` are the
     * holder's channels subscribed to and not yet connected, which will take a slot each.
     */
    noRoomFor(holder: ChannelHolder, waiting = 0): NoRoom | undefined {
      if (holder.owner) return pools.owner < deps.maxChannels ? undefined : 'pod'
      if ((perClient.get(holder.client) ?? 0) + waiting >= deps.maxChannelsPerClient) return 'client'
      return pools.others < deps.maxChannels ? undefined : 'pod'
    },
    /** The byte budget of what channels hold unsent: each transport reports its writes. */
    buffers,
    /**
     * Opens `listener`: from now on it hears its topic's changes. With the `state` feature, a subscriber whose
     * state is not the topic's current one is told at once (an Update with the current state, or a Delete
     * when the topic is gone), if it may still read the topic.
     */
    async open(listener: Listener): Promise<void> {
      add(listener)
      const held = listener.features.state
      if (held === undefined) return
      const meta = await getMeta(store, listener.topic)
      if (meta && namesState(held, meta)) return
      const change: ResourceChange = meta
        ? { topic: listener.topic, type: 'Update', object: listener.topic, state: defaultEtag(meta), published: meta.modified }
        : { topic: listener.topic, type: 'Delete', object: listener.topic, published: now() }
      const v = await verdictFor(listener.principal, listener.origin, change, now())
      if (v === 'allowed') listener.send(notificationOf(change, baseUrl), change)
      else if (v !== 'not_this_one') end(listener.id, v)
    },
    /** Ends every channel (the pod is stopping) and stops hearing changes. */
    close(): void {
      stopListening()
      for (const id of [...byId.keys()]) end(id, 'shutdown')
    },
  }
}

export type ChannelRegistry = ReturnType<typeof makeChannelRegistry>
