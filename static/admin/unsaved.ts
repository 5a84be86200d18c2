// Work not saved yet (a document being edited, access added but not saved): leaving the page or the
// dashboard's view asks first, instead of throwing it away without a word.

let pending: string | undefined

/** `what` is not saved yet, in words: "Your changes to notes.ttl". */
export const markUnsaved = (what: string) => { pending = what }
export const markSaved = () => { pending = undefined }

/** Whether the owner agrees to leave what is not saved (asked only when there is some). */
export function mayLeave(): boolean {
  if (pending === undefined) return true
  if (!window.confirm(`${pending} ${pending.endsWith('s') ? 'are' : 'is'} not saved. Leave and lose ${pending.endsWith('s') ? 'them' : 'it'}?`)) return false
  pending = undefined
  return true
}

// A reload, a closed tab or a link out of the dashboard: the browser's own question (HTML §7.4.6.2)
window.addEventListener('beforeunload', (e) => {
  if (pending === undefined) return
  e.preventDefault()
  e.returnValue = ''
})
