// The owner's view of live updates: the open notification channels (topic, channel type, who, since when,
// until when) and ending one, for the dashboard's JSON API and the page that needs no JavaScript.

import type { Deps } from '../deps.ts'
import { listConsents } from '../account/consents.ts'
import type { ChannelSummary } from '../channels/channel-registry.ts'
import type { ChannelType } from '../channels/listener.ts'
import { channelLabel } from '../channels/channel-label.ts'
import { breakableUrl, html } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readablePath } from '../lib/readable-path.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { agentCode, agentLabel } from './person-label.ts'
import type { PersonCards } from '../account/person-cards.ts'
import { ownerWebIdOf } from '../config.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'now' | 'channels' | 'webhooks' | 'people'>

/** Channels listed at most (oldest first); `total` says how many are open. The pod may hold 20,000. */
export const CHANNELS_SHOWN = 500

export interface ChannelView {
  /** The channel's id (a URL under /.notifications/): DELETE /.admin/api/channels/{encoded id} ends it. Never its receiveFrom. */
  readonly id: string
  readonly type: ChannelType
  /** The topic's URL. */
  readonly topic: string
  readonly webid: string | null
  readonly clientId: string | null
  /** The app's name as the owner approved it, when a consent names it. */
  readonly clientName: string | null
  /** HttpSig keys the subscriber proved. */
  readonly keys: readonly string[]
  readonly since: string
  readonly endAt: string | null
}

/** A webhook whose receiver fails (retried) or that was dropped for it (the last 30 days): never what the receiver answered. */
export interface WebhookTroubleView {
  readonly id: string
  readonly topic: string
  readonly sendTo: string
  readonly webid: string | null
  readonly state: 'failing' | 'dropped'
  /** The last failure: `answered 500`, `no answer within 5000 ms`, … */
  readonly reason: string
  /** The first failure since the last success. */
  readonly since: string
  readonly lastAttempt: string
  /** Notifications it lost (given up, or past its outbox bound). */
  readonly lost: number
}

const iso = (ms: number) => new Date(ms).toISOString()

/** GET /.admin/api/channels. */
export async function readChannels(deps: AdminDeps): Promise<{ total: number; channels: ChannelView[]; webhookTroubles: WebhookTroubleView[] }> {
  const open = deps.channels.list()
  const names = new Map((await listConsents(deps.store, deps.now())).map(c => [c.clientId, c.clientName ?? null]))
  const view = (c: ChannelSummary): ChannelView => ({
    id: c.id,
    type: c.type,
    topic: deps.cfg.baseUrl + c.topic,
    webid: c.webid ?? null,
    clientId: c.clientId ?? null,
    clientName: c.clientId !== undefined ? (names.get(c.clientId) ?? null) : null,
    keys: c.keys,
    since: iso(c.since),
    endAt: c.endAt !== undefined ? iso(c.endAt) : null,
  })
  const webhookTroubles = (await deps.webhooks.troubles()).map(
    (t): WebhookTroubleView => ({
      id: t.id,
      topic: deps.cfg.baseUrl + t.topic,
      sendTo: t.sendTo,
      webid: t.webid ?? null,
      state: t.state,
      reason: t.reason,
      since: iso(t.since),
      lastAttempt: iso(t.lastAttempt),
      lost: t.lost,
    }),
  )
  return { total: open.length, channels: open.slice(0, CHANNELS_SHOWN).map(view), webhookTroubles }
}

/** Ends an open channel for the owner (its subscriber is told 'ended_by_owner' where the channel can carry it); false when none has this id. */
export function endChannel(deps: Pick<Deps, 'channels'>, id: string): boolean {
  // The registry logs the end with its reason, never the id (its last segment was the receiveFrom secret)
  return deps.channels.end(id, 'ended_by_owner')
}

/** Who listens, in a few words: you, or the person (by name once their profile is read), and the app; or the keys; or nobody signed in. */
const whoOf = (c: ChannelView, owner: string, people: PersonCards) =>
  html`${
    c.webid
      ? c.webid === owner
        ? 'You'
        : (agentLabel(people, c.webid, owner) ?? agentCode(c.webid))
      : c.keys.length
        ? html`key ${c.keys.map(k => html`<code>${breakableUrl(k)}</code> `)}`
        : html`<span class="muted">anyone (not signed in)</span>`
  }${c.clientId ? html`<br>with ${c.clientName ? html`<strong>${c.clientName}</strong> ` : ''}<code>${breakableUrl(c.clientId)}</code>` : ''}`

const cell = (label: string, content: unknown) => html`<td data-label="${label}">${content}</td>`
/** The row's form: no column name beside it on a phone, the button says what it does. */
const actionCell = (content: unknown) => html`<td class="row-action">${content}</td>`

/** One channel's row, with its End form. */
function rowOf(c: ChannelView, base: string, csrf: string, people: PersonCards) {
  const path = readablePath(c.topic.slice(base.length))
  return html`<tr>${cell('Document', html`<a href="${c.topic}">${path}</a>`)}${cell('Channel', html`<span class="nowrap">${channelLabel(c.type)}</span>`)}${cell('Who', whoOf(c, ownerWebIdOf(base), people))}
${cell('Since', localTime(Date.parse(c.since)))}${cell('Ends', c.endAt ? localTime(Date.parse(c.endAt)) : html`<span class="muted">when closed</span>`)}
${actionCell(html`<form class="inline" method="post" action="${ADMIN_PATHS.endChannel}" data-enhance="confirm" data-confirm="End the ${channelLabel(c.type)} subscription to ${path}? The app may subscribe again if it still has access.">${csrfField(csrf)}<input type="hidden" name="id" value="${c.id}"><button type="submit" class="small secondary" aria-label="End subscription to ${path}">End</button></form>`)}</tr>`
}

/** Webhooks whose receiver fails or that were dropped for it. */
function troublesOf(troubles: readonly WebhookTroubleView[], base: string) {
  if (troubles.length === 0) return ''
  return html`<section aria-labelledby="webhook-troubles-h"><h2 id="webhook-troubles-h">Webhooks that fail</h2>
<p class="muted">The pod retries a failing receiver with backoff; one that has not answered for 3 days is dropped.</p>
<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Document</th><th scope="col">Sent to</th><th scope="col">State</th><th scope="col">Reason</th><th scope="col">Since</th><th scope="col">Lost</th></tr></thead>
<tbody>${troubles.map(
    t => html`<tr>${cell('Document', readablePath(t.topic.slice(base.length)))}${cell('Sent to', html`<code>${breakableUrl(t.sendTo)}</code>`)}
${cell('State', t.state)}${cell('Reason', t.reason)}${cell('Since', localTime(Date.parse(t.since)))}${cell('Lost', t.lost)}</tr>`,
  )}</tbody>
</table></div></section>`
}

/** GET /.admin/live-updates: the same list with an End form per channel, and the webhooks that fail. */
export async function showLiveUpdatesPage(deps: AdminDeps, cookieHeader: string | null, done: unknown): Promise<Response> {
  const { total, channels, webhookTroubles } = await readChannels(deps)
  const base = deps.cfg.baseUrl
  // Names read meanwhile appear on the next visit, as on the other pages that list people
  deps.people.learn(channels.flatMap(c => (c.webid ? [c.webid] : [])))
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Live updates',
    section: ADMIN_PATHS.liveUpdates,
    ...(done === 'ended' ? { notice: 'Subscription ended' } : {}),
    body: csrf => html`<p class="muted">Apps and people subscribed to changes of your documents. Ending a subscription closes it; an app may subscribe again if it still has access.</p>
${total > channels.length ? html`<p>Showing the ${channels.length} oldest of ${total} subscriptions.</p>` : ''}
<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Document</th><th scope="col">Channel</th><th scope="col">Who</th><th scope="col">Since</th><th scope="col">Ends</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${channels.length === 0 ? html`<tr><td colspan="6" class="muted">No subscriptions are open</td></tr>` : channels.map(c => rowOf(c, base, csrf, deps.people))}</tbody>
</table></div>
${troublesOf(webhookTroubles, base)}`,
  })
}
