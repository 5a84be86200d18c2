// Small DOM helpers of the dashboard: elements from data (never HTML strings), the status line.

type Child = Node | string | null | undefined | false
type Attrs = Record<string, string | boolean | undefined | ((e: Event) => void)>

/** `h('a', { href }, 'text')`: attributes, `on…` listeners, children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.slice(2), v)
    else if (v === true) el.setAttribute(k, '')
    else if (typeof v === 'string') el.setAttribute(k, v)
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c)
  return el
}

export { formatBytes } from '../../src/lib/format-bytes.ts'

const status = () => document.getElementById('status')!

/** A message in the live region (read out by screen readers); empty text hides it. */
export function say(text: string): void {
  const s = status()
  s.className = 'dash-status'
  s.setAttribute('role', 'status')
  s.textContent = text
}

/**
 * A failure, said where the person looks: the status line, as an alert, scrolled into view (on a phone the
 * form that failed sits far below it). Focus stays where it is; a caller that puts the message beside a
 * field calls this first, then focuses the field.
 */
export function sayError(err: unknown): void {
  const s = status()
  s.className = 'dash-status error'
  s.setAttribute('role', 'alert')
  s.textContent = err instanceof Error ? err.message : String(err)
  // The refusal's code small beside the sentence, for whoever reports it (api.ts ApiError)
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
  if (code) s.append(' ', h('small', { class: 'code', id: 'status-code' }, `Error code: ${code}`))
  s.scrollIntoView({ block: 'nearest' })
}

/** No action that destroys data runs without the person saying yes. */
export const confirmAction = (question: string) => window.confirm(question)
