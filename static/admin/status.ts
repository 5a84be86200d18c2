// Pod status: version, uptime, disk, certificate (with a warning before it expires or when renewal failed), last backup.

import { api } from './api.ts'
import { clear, formatDate, h } from './dom.ts'
import { podStatusRows, type PodStatus } from '../../src/admin/pod-status-rows.ts'

export async function showStatus(view: HTMLElement): Promise<void> {
  const status = await api<PodStatus>('GET', '/status', undefined, 'Reading the pod\'s status')
  const rows = podStatusRows(status, formatDate)
  clear(view)
  view.append(h('h2', {}, 'Pod status'),
    h('dl', { class: 'pod-status' }, ...rows.flatMap((r) => [h('dt', {}, r.label), h('dd', r.warning ? { class: 'warning' } : {}, r.text)])))
}
