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
import { csrfField, renderBasicPage } from './basic-page.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'channels'>

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

const iso = (ms: number) => new Date(ms).toISOString()

/** GET /.admin/api/channels. */
export async function readChannels(deps: AdminDeps): Promise<{ total: number; channels: ChannelView[] }> {
  const open = deps.channels.list()
  const names = new Map((await listConsents(deps.store, deps.now())).map((c) => [c.clientId, c.clientName ?? null]))
  const view = (c: ChannelSummary): ChannelView => ({
    id: c.id, type: c.type, topic: deps.cfg.baseUrl + c.topic, webid: c.webid ?? null, clientId: c.clientId ?? null,
    clientName: c.clientId !== undefined ? names.get(c.clientId) ?? null : null, keys: c.keys, since: iso(c.since), endAt: c.endAt !== undefined ? iso(c.endAt) : null,
  })
  return { total: open.length, channels: open.slice(0, CHANNELS_SHOWN).map(view) }
}

/** Ends an open channel for the owner (its subscriber is told 'ended_by_owner' where the channel can carry it); false when none has this id. */
export function endChannel(deps: Pick<Deps, 'channels'>, id: string): boolean {
  // The registry logs the end with its reason, never the id (its last segment was the receiveFrom secret)
  return deps.channels.end(id, 'ended_by_owner')
}

/** Who listens, in a few words: the WebID and the app, or the keys, or nobody signed in. */
const whoOf = (c: ChannelView) => html`${c.webid ? html`<code>${breakableUrl(c.webid)}</code>` : c.keys.length
  ? html`key ${c.keys.map((k) => html`<code>${breakableUrl(k)}</code> `)}`
  : html`<span class="muted">anyone (not signed in)</span>`}${c.clientId ? html`<br>with ${c.clientName ? html`<strong>${c.clientName}</strong> ` : ''}<code>${breakableUrl(c.clientId)}</code>` : ''}`

const cell = (label: string, content: unknown) => html`<td data-label="${label}">${content}</td>`

/** One channel's row, with its End form. */
function rowOf(c: ChannelView, base: string, csrf: string) {
  const path = readablePath(c.topic.slice(base.length))
  return html`<tr>${cell('Document', html`<a href="${c.topic}">${path}</a>`)}${cell('Channel', html`<span class="nowrap">${channelLabel(c.type)}</span>`)}${cell('Who', whoOf(c))}
${cell('Since', localTime(Date.parse(c.since)))}${cell('Ends', c.endAt ? localTime(Date.parse(c.endAt)) : html`<span class="muted">when closed</span>`)}
${cell('Action', html`<form class="inline" method="post" action="${ADMIN_PATHS.endChannel}">${csrfField(csrf)}<input type="hidden" name="id" value="${c.id}"><button type="submit" aria-label="End subscription to ${path}">End</button></form>`)}</tr>`
}

/** GET /.admin/live-updates: the same list with an End form per channel. */
export async function showLiveUpdatesPage(deps: AdminDeps, cookieHeader: string | null, done: unknown): Promise<Response> {
  const { total, channels } = await readChannels(deps)
  const base = deps.cfg.baseUrl
  return renderBasicPage(cookieHeader, base, {
    heading: 'Live updates', section: ADMIN_PATHS.liveUpdates, ...(done === 'ended' ? { notice: 'Subscription ended' } : {}),
    body: (csrf) => html`<p class="muted">Apps and people subscribed to changes of your documents. Ending a subscription closes it; an app may subscribe again if it still has access.</p>
${total > channels.length ? html`<p>Showing the ${channels.length} oldest of ${total} subscriptions.</p>` : ''}
<table class="stack">
<thead><tr><th scope="col">Document</th><th scope="col">Channel</th><th scope="col">Who</th><th scope="col">Since</th><th scope="col">Ends</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${channels.length === 0 ? html`<tr><td colspan="6" class="muted">No subscriptions are open</td></tr>` : channels.map((c) => rowOf(c, base, csrf))}</tbody>
</table>`,
  })
}
