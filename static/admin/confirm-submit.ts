// A form that revokes, removes or ends something asks first (its data-confirm question); without the script
// the form simply posts, as a button labelled with what it does.

import { confirmAction } from './dom.ts'

export function confirmSubmit(form: HTMLElement): void {
  const question = form.dataset.confirm
  if (!(form instanceof HTMLFormElement) || !question) return
  form.addEventListener('submit', e => {
    if (!confirmAction(question)) e.preventDefault()
  })
}
