// Work not saved yet (a document being edited, a form half filled): leaving the page asks first, instead
// of throwing it away without a word. A form marked `data-enhance="unsaved"` counts as unsaved once
// anything in it changed, until it is submitted; a script's own view calls markUnsaved/markSaved.

let pending: { readonly what: string; readonly plural: boolean } | undefined

/** `what` is not saved yet, in words ("Your changes to notes.ttl", plural). */
export const markUnsaved = (what: string, plural = false) => { pending = { what, plural } }
export const markSaved = () => { pending = undefined }

/** Whether the owner agrees to leave what is not saved (asked only when there is some). */
export function mayLeave(): boolean {
  if (pending === undefined) return true
  const { what, plural } = pending
  if (!window.confirm(`${what} ${plural ? 'are' : 'is'} not saved. Leave and lose ${plural ? 'them' : 'it'}?`)) return false
  pending = undefined
  return true
}

/** The form's `data-unsaved` names what would be lost ("Your changes to notes.ttl"). */
export function guardUnsaved(form: HTMLElement): void {
  const what = form.dataset.unsaved ?? 'What you typed here'
  form.addEventListener('input', () => markUnsaved(what, /^Your changes\b/.test(what)))
  form.addEventListener('submit', () => markSaved())
}

// A reload, a closed tab or a link away: the browser's own question (HTML §7.4.6.2)
window.addEventListener('beforeunload', (e) => {
  if (pending === undefined) return
  e.preventDefault()
  e.returnValue = ''
})
