// The owner's new password, on the Profile view: the current one, the new one twice. The server checks
// them (admin/change-password.ts) and ends every other browser's login; its refusal is shown at the field it is about.

import { ApiError, api } from './api.ts'
import { field, h, say, sayError, setFieldError, type FieldSlot } from './dom.ts'
import { MIN_PASSWORD_LENGTH } from '../../src/lib/password-rules.ts'

const passwordInput = (id: string, autocomplete: string) =>
  h('input', { type: 'password', id, autocomplete, required: true, ...(autocomplete === 'new-password' ? { minlength: String(MIN_PASSWORD_LENGTH) } : {}) })

export function passwordPanel(): HTMLElement {
  const current = field(passwordInput('password-current', 'current-password'), 'Current password')
  const password = field(passwordInput('password-new', 'new-password'), 'New password', `At least ${MIN_PASSWORD_LENGTH} characters.`)
  const confirm = field(passwordInput('password-confirm', 'new-password'), 'New password again')
  const slots = [current.slot, password.slot, confirm.slot]
  /** Which field a refusal is about, by its code. */
  const slotOf: Record<string, FieldSlot> = { wrong_current_password: current.slot, weak_password: password.slot, passwords_differ: confirm.slot }
  const form = h('form', {}, current.el, password.el, confirm.el, h('button', { type: 'submit' }, 'Change password'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    for (const s of slots) setFieldError(s, undefined)
    const body = { current: current.slot.control.value, password: password.slot.control.value, confirm: confirm.slot.control.value }
    void api<{ loginsEnded: number }>('POST', '/password', body, 'Changing your password').then((r) => {
      form.reset()
      say(`Password changed. ${r.loginsEnded === 0 ? 'No other browser was signed in.' : `Signed out in ${r.loginsEnded} other browser${r.loginsEnded === 1 ? '' : 's'}.`}`)
    }, (err: unknown) => {
      const slot = err instanceof ApiError ? slotOf[err.code] : undefined
      if (!slot) { sayError(err); return }
      setFieldError(slot, err instanceof Error ? err.message : String(err))
      slot.control.focus()
    })
  })
  return h('section', { class: 'panel', 'aria-labelledby': 'password-h' }, h('h2', { id: 'password-h' }, 'Password'),
    h('p', { class: 'muted' }, 'Changing it signs you out in every other browser, and ends the app sessions they approved.'), form)
}
