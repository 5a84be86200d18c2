// Live updates: the open notification subscriptions (document, channel, who, since, until), each with End
// (the owner API's DELETE /.admin/api/channels/{id}); the subscriber's socket or stream closes.

import { BASE, api } from './api.ts'
import { channelLabel, clear, confirmAction, formatDate, h, readablePath, say, sayError } from './dom.ts'
import type { ChannelView } from '../../src/admin/live-updates.ts'

/** The document's name as people read it, linked to the document. */
const documentOf = (c: ChannelView) => {
  const path = c.topic.startsWith(BASE) ? readablePath(c.topic.slice(BASE.length)) : c.topic
  return { path, link: h('a', { href: c.topic }, path) }
}

const whoOf = (c: ChannelView) => h('span', {},
  c.webid ? h('code', {}, c.webid) : c.keys.length ? ['key ', ...c.keys.map((k) => h('code', {}, k))] : h('span', { class: 'muted' }, 'anyone (not signed in)'),
  c.clientId ? [h('br'), 'with ', c.clientName ? h('strong', {}, `${c.clientName} `) : '', h('code', {}, c.clientId)] : '')

export async function showLiveUpdates(view: HTMLElement): Promise<void> {
  const { total, channels } = await api<{ total: number; channels: ChannelView[] }>('GET', '/channels', undefined, 'Reading subscriptions')
  const end = (c: ChannelView, path: string) => () => {
    if (!confirmAction(`End the ${channelLabel(c.type)} subscription to ${path}? The app may subscribe again if it still has access.`)) return
    void api('DELETE', `/channels/${encodeURIComponent(c.id)}`, undefined, 'Ending the subscription')
      .then(() => showLiveUpdates(view)).then(() => say('Ending the subscription: done')).catch(sayError)
  }
  const head = ['Document', 'Channel', 'Who', 'Since', 'Ends']
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
    h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
      h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')))),
      h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: String(head.length + 1), class: 'muted' }, 'No subscriptions are open')))))))
}
