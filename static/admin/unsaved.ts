// Work not saved yet (a document being edited, a form half filled): leaving the page asks first, instead
// of throwing it away without a word. A form marked `data-enhance="unsaved"` counts as unsaved once
// anything in it changed, until it is submitted. The question is the browser's own (HTML §7.4.6.2: a page
// may no longer choose its words), asked on a reload, a closed tab or a link away.

let unsaved = false

export function guardUnsaved(form: HTMLElement): void {
  form.addEventListener('input', () => {
    unsaved = true
  })
  form.addEventListener('submit', () => {
    unsaved = false
  })
}

window.addEventListener('beforeunload', e => {
  if (!unsaved) return
  e.preventDefault()
  e.returnValue = ''
})
