// A form marked `data-confirm="question"` asks before it is sent (revoking a key or a grant cannot be undone);
// without a script the form is sent at once, as its button says.

import { confirmAction } from './dom.ts'

export function confirmBeforeSubmit(form: HTMLElement): void {
  const question = form.dataset.confirm
  if (!question) return
  form.addEventListener('submit', (e) => { if (!confirmAction(question)) e.preventDefault() })
}
