// Live updates: the open notification subscriptions (document, channel, who, since, until), each with End
// (the owner API's DELETE /.admin/api/channels/{id}); the subscriber's socket or stream closes. Below them,
// webhooks whose receiver fails or that were dropped for it.

import { BASE, api } from './api.ts'
import { channelLabel, clear, confirmAction, formatDate, h, readablePath, say, sayError } from './dom.ts'
import type { ChannelView, WebhookTroubleView } from '../../src/admin/live-updates.ts'

const readableTopic = (topic: string) => topic.startsWith(BASE) ? readablePath(topic.slice(BASE.length)) : topic

/** The document's name as people read it, linked to the document. */
const documentOf = (c: ChannelView) => {
  const path = readableTopic(c.topic)
  return { path, link: h('a', { href: c.topic }, path) }
}

const whoOf = (c: ChannelView) => h('span', {},
  c.webid ? h('code', {}, c.webid) : c.keys.length ? ['key ', ...c.keys.map((k) => h('code', {}, k))] : h('span', { class: 'muted' }, 'anyone (not signed in)'),
  c.clientId ? [h('br'), 'with ', c.clientName ? h('strong', {}, `${c.clientName} `) : '', h('code', {}, c.clientId)] : '')

const table = (head: string[], rows: HTMLElement[], empty: string) => h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
  h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)))),
  h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: String(head.length), class: 'muted' }, empty)))))

function troublesOf(troubles: readonly WebhookTroubleView[]) {
  if (troubles.length === 0) return null
  return h('section', { class: 'panel', 'aria-labelledby': 'webhook-troubles-h' }, h('h2', { id: 'webhook-troubles-h' }, 'Webhooks that fail'),
    h('p', { class: 'muted' }, 'The pod retries a failing receiver with backoff; one that has not answered for 3 days is dropped.'),
    table(['Document', 'Sent to', 'State', 'Reason', 'Since', 'Lost'], troubles.map((t) => h('tr', {},
      h('td', { 'data-label': 'Document' }, readableTopic(t.topic)), h('td', { 'data-label': 'Sent to' }, h('code', {}, t.sendTo)),
      h('td', { 'data-label': 'State' }, t.state), h('td', { 'data-label': 'Reason' }, t.reason), h('td', { 'data-label': 'Since' }, formatDate(t.since)),
      h('td', { 'data-label': 'Lost' }, String(t.lost)))), ''))
}

export async function showLiveUpdates(view: HTMLElement): Promise<void> {
  const { total, channels, webhookTroubles } = await api<{ total: number; channels: ChannelView[]; webhookTroubles: WebhookTroubleView[] }>('GET', '/channels', undefined, 'Reading subscriptions')
  const end = (c: ChannelView, path: string) => () => {
    if (!confirmAction(`End the ${channelLabel(c.type)} subscription to ${path}? The app may subscribe again if it still has access.`)) return
    void api('DELETE', `/channels/${encodeURIComponent(c.id)}`, undefined, 'Ending the subscription')
      .then(() => showLiveUpdates(view)).then(() => say('Ending the subscription: done')).catch(sayError)
  }
  const rows = channels.map((c) => {
    const { path, link } = documentOf(c)
    return h('tr', {},
      h('td', { 'data-label': 'Document' }, link), h('td', { 'data-label': 'Channel' }, h('span', { class: 'nowrap' }, channelLabel(c.type))), h('td', { 'data-label': 'Who' }, whoOf(c)),
      h('td', { 'data-label': 'Since' }, formatDate(c.since)), h('td', { 'data-label': 'Ends' }, c.endAt ? formatDate(c.endAt) : h('span', { class: 'muted' }, 'when closed')),
      h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `End subscription to ${path}`, onclick: end(c, path) }, 'End')))
  })
  clear(view)
  view.append(h('section', { class: 'panel', 'aria-labelledby': 'live-h' }, h('h2', { id: 'live-h' }, 'Live updates'),
    h('p', { class: 'muted' }, 'Apps and people subscribed to changes of your documents. Ending a subscription closes it; an app may subscribe again if it still has access.'),
    total > channels.length ? h('p', {}, `Showing the ${channels.length} oldest of ${total} subscriptions.`) : null,
    table(['Document', 'Channel', 'Who', 'Since', 'Ends', 'Action'], rows, 'No subscriptions are open')),
  troublesOf(webhookTroubles) ?? '')
}
