// Backup: a plain form post to /.admin/backup, which the browser saves as a file (the server streams
// it, however large the pod); then the "last backup" line follows once the server recorded it.

import { BASE, CSRF, api } from './api.ts'
import { clear, formatDate, h, say, sayError } from './dom.ts'

interface Last { last: { at: string; via: 'download' | 'export'; resources: number } | null }

const describe = (l: Last['last']) => l
  ? `Your last backup was made ${formatDate(l.at)} (${l.via === 'download' ? 'downloaded here' : 'with solopod export'}, ${l.resources} resources).`
  : 'No backup has been made of this pod yet.'

/** The download runs outside the page; the server records it when the last byte left, so ask a while. */
async function followLast(before: string | undefined, line: HTMLElement): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 1000))
    const now = await api<Last>('GET', '/backup', undefined, 'Reading when the last backup was made')
    if (now.last && now.last.at !== before) { line.textContent = describe(now.last); say('Backup downloaded'); return }
  }
}

export async function showBackup(view: HTMLElement): Promise<void> {
  const { last } = await api<Last>('GET', '/backup', undefined, 'Reading when the last backup was made')
  const line = h('p', { id: 'last-backup' }, describe(last))
  const form = h('form', { method: 'post', action: `${BASE}/.admin/backup` },
    h('input', { type: 'hidden', name: 'csrf', value: CSRF }),
    h('button', { type: 'submit' }, 'Download a backup'))
  form.addEventListener('submit', () => {
    say('Preparing the backup… your browser saves it as a file.')
    void followLast(last?.at, line).catch(sayError)
  })
  clear(view)
  view.append(h('h2', {}, 'Backup'), line,
    h('p', {}, 'The whole pod as one file: every document and file, access rules, your account and the apps you allowed, taken at one instant. ',
      'Restore it into a new data directory with ', h('code', {}, 'solopod import FILE --data DIR'), '.'),
    h('p', { class: 'warning' }, 'Keep it private: it holds your password hash and the pod\'s signing keys.'),
    form)
}
