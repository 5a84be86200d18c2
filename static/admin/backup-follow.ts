// Backup: the form's answer is the download, which leaves the page where it was; the "last backup" line then
// follows once the server has recorded it (after the last byte left). The line is the Backup page's own,
// read again from the pod: the sentence is written once, by the page.

import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { say, sayError } from './dom.ts'

/** The Backup page's "last backup" line as the pod draws it now, or undefined when it could not be read. */
async function lineNow(): Promise<Element | undefined> {
  const res = await fetch(ADMIN_PATHS.backup, { credentials: 'same-origin' })
  if (!res.ok) throw new Error(`Reading when the last backup was made failed (${res.status})`)
  return new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('last-backup') ?? undefined
}

async function followLast(line: HTMLElement, before: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await new Promise(r => setTimeout(r, 1000))
    const now = await lineNow()
    if (now && now.textContent !== before) {
      line.replaceChildren(...now.childNodes)
      say('Backup downloaded')
      return
    }
  }
}

/** On the backup form: the page's `#last-backup` line is replaced by the pod's new one once it changed. */
export function followBackup(form: HTMLElement): void {
  const line = document.getElementById('last-backup')
  if (!line) return
  form.addEventListener('submit', () => {
    say('Preparing the backup… your browser saves it as a file.')
    void followLast(line, line.textContent ?? '').catch(sayError)
  })
}
