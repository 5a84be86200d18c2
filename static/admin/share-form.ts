// Enhancements of the share page (src/admin/share-page.ts, share-form.ts), which works without them:
// the WebID is checked as it is typed (the same server function the Share button runs, GET
// /.admin/api/webid-check), and each "Send it" link gets a Copy link button.

import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import type { WebIdCheck } from '../../src/admin/webid-check.ts'
import { ApiError, api } from './api.ts'
import { h, say } from './dom.ts'

/** The WebID field says, as the owner types, whether it is a profile, or which WebID the document names. */
export function checkWebIdAsTyped(form: HTMLElement): void {
  const kind = form.querySelector<HTMLSelectElement>('[name="kind"]')
  const value = form.querySelector<HTMLInputElement>('[name="value"]')
  const hint = form.querySelector<HTMLElement>('#share-value-hint')
  if (!kind || !value || !hint) return
  hint.setAttribute('aria-live', 'polite')
  const plain = hint.textContent ?? ''
  let timer: ReturnType<typeof setTimeout> | undefined
  let asked = ''
  const check = () => {
    const typed = value.value.trim()
    if (kind.value !== 'agent' || !/^https?:\/\/\S+$/.test(typed)) {
      hint.textContent = plain
      hint.className = 'hint'
      return
    }
    asked = typed
    hint.textContent = 'Checking this WebID…'
    void api<WebIdCheck>(
      'GET',
      `${ADMIN_PATHS.webidCheck.slice(ADMIN_PATHS.api.length)}?webid=${encodeURIComponent(typed)}`,
      undefined,
      'Checking the WebID',
    ).then(
      c => {
        if (asked !== typed) return
        hint.className = 'hint'
        if (c.ok) {
          hint.textContent = 'A profile describes this WebID.'
          return
        }
        hint.replaceChildren(
          c.suggestion ? 'Did you mean ' : 'This is a profile document, not a person’s WebID (no #…). ',
          c.suggestion
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'small secondary',
                  onclick: () => {
                    value.value = c.suggestion!
                    check()
                  },
                },
                c.suggestion,
              )
            : '',
          c.suggestion ? '?' : '',
        )
      },
      (err: unknown) => {
        if (asked !== typed) return
        hint.className = 'hint field-error'
        hint.textContent = err instanceof ApiError ? err.message : 'The WebID could not be checked'
      },
    )
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(check, 500)
  }
  value.addEventListener('input', later)
  kind.addEventListener('change', later)
}

/** A Copy link button beside a read-only link field. */
export function copyLinkButton(input: HTMLElement): void {
  if (!(input instanceof HTMLInputElement) || !navigator.clipboard) return
  const label = input.getAttribute('aria-label') ?? 'the link'
  input.after(
    h(
      'button',
      {
        type: 'button',
        class: 'small secondary',
        'aria-label': `Copy ${label.replace(/^Link/, 'link')}`,
        onclick: () => {
          void navigator.clipboard.writeText(input.value).then(
            () => say('Link copied'),
            () => {
              input.select()
              say('Select the link and copy it')
            },
          )
        },
      },
      'Copy link',
    ),
  )
}
