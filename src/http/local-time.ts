// Dates on the owner's pages: readable, in the server's time zone (pages run no script to learn the browser's).

import { html, type SafeHtml } from './html-page.ts'

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' })

/**
 * `25 Nov 2026 00:41 UTC` inside `<time datetime>` (the exact instant for machines); the date and the
 * time each stay on one line, so a narrow column wraps only between them.
 */
export function localTime(ms: number): SafeHtml {
  const d = new Date(ms)
  return html`<time datetime="${d.toISOString()}"><span class="nowrap">${DATE.format(d)}</span> <span class="nowrap">${TIME.format(d)}</span></time>`
}
