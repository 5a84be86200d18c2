// The edit page's Turtle checked while typing (src/admin/edit-page.ts marks its form `check-turtle`): the
// text goes to /.admin/api/check-rdf — the resource server's own parser, nothing written — and a problem
// is shown beside the text box, with its line, before Save is pressed. Without the script the save itself
// refuses bad Turtle (400, the line shown), so this only says it sooner.

import { api } from './api.ts'
import { sayError } from './dom.ts'
import type { checkRdf } from '../../src/admin/check-rdf.ts'

type Checked = Awaited<ReturnType<typeof checkRdf>>

/** Quiet while typing: one check after a pause, not one per key. */
const PAUSE_MS = 400

export function checkTurtle(form: HTMLElement): void {
  const area = form.querySelector<HTMLTextAreaElement>('textarea[name="text"]')
  const slot = document.getElementById('rdf-check')
  const base = form.dataset.document
  if (!area || !slot || !base) return
  let timer: ReturnType<typeof setTimeout> | undefined
  let asked = 0
  const check = async () => {
    const mine = ++asked
    let r: Checked
    try {
      r = await api<Checked>('POST', '/check-rdf', { text: area.value, contentType: 'text/turtle', base }, 'Checking the Turtle')
    } catch (err) {
      // Not a problem of the text (signed out, the pod away): said in the status line; Save still checks
      if (mine === asked) sayError(err)
      return
    }
    if (mine !== asked) return // a newer text is being checked
    const shown = r.ok ? undefined : `${r.line ? `Line ${r.line}: ` : ''}${r.message} (${r.code})`
    slot.textContent = shown ?? ''
    slot.hidden = shown === undefined
    if (shown === undefined) area.removeAttribute('aria-invalid')
    else area.setAttribute('aria-invalid', 'true')
  }
  area.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      void check()
    }, PAUSE_MS)
  })
}
