// Backup: the form's answer is the download, which leaves the page where it was; the "last backup" line then
// follows once the server has recorded it (after the last byte left), asking a while.

import { api } from './api.ts'
import { formatDate, say, sayError } from './dom.ts'

interface Last { last: { at: string; via: 'download' | 'export'; resources: number } | null }

const describe = (l: NonNullable<Last['last']>) =>
  `Your last backup was made ${formatDate(l.at)} (${l.via === 'download' ? 'downloaded here' : 'with solopod export'}, ${l.resources} resources).`

async function followLast(line: HTMLElement, before: string | undefined): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 1000))
    const now = await api<Last>('GET', '/backup', undefined, 'Reading when the last backup was made')
    if (now.last && now.last.at !== before) { line.textContent = describe(now.last); say('Backup downloaded'); return }
  }
}

/** On the backup form: `data-last-backup` is the recorded backup's time when the page was drawn. */
export function followBackup(form: HTMLElement): void {
  const line = document.getElementById('last-backup')
  if (!line) return
  form.addEventListener('submit', () => {
    say('Preparing the backup… your browser saves it as a file.')
    void followLast(line, form.dataset.lastBackup || undefined).catch(sayError)
  })
}
