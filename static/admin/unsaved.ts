// Work not saved yet (a document being edited, access added but not saved): leaving the page or the
// dashboard's view asks first, instead of throwing it away without a word.

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

// A reload, a closed tab or a link out of the dashboard: the browser's own question (HTML §7.4.6.2)
window.addEventListener('beforeunload', (e) => {
  if (pending === undefined) return
  e.preventDefault()
  e.returnValue = ''
})
