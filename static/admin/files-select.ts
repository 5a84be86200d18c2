// The Files page's selection, enhanced: a "Select all" box in the header, and "Delete selected" / "Move
// selected to…" enabled only while something is ticked (without the script they are always enabled, and
// the pod answers 400 nothing_selected).

import { h } from './dom.ts'

export function enhanceSelection(form: HTMLElement): void {
  const boxes = [...form.querySelectorAll<HTMLInputElement>('input[type=checkbox][name=item]')]
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('.selection-actions button')]
  if (boxes.length === 0) return
  const all = h('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select all' })
  form.querySelector('thead th.pick')?.replaceChildren(all)
  const sync = () => {
    const ticked = boxes.filter(b => b.checked).length
    all.checked = ticked === boxes.length
    all.indeterminate = ticked > 0 && ticked < boxes.length
    for (const b of buttons) b.disabled = ticked === 0
  }
  all.addEventListener('change', () => {
    for (const b of boxes) b.checked = all.checked
    sync()
  })
  for (const b of boxes) b.addEventListener('change', sync)
  sync()
}
