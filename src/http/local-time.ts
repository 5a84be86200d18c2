// Dates on the owner's pages: readable, in the server's time zone (pages run no script to learn the browser's).

import { html, type SafeHtml } from './html-page.ts'

// Made on first use: building them loads ICU's locale and time zone data (~10 ms of every start otherwise).
let formats: { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat; seconds: Intl.DateTimeFormat } | undefined
const formatsOf = () =>
  (formats ??= {
    date: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }),
    time: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }),
    seconds: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }),
  })

/**
 * `25 Nov 2026 00:41 UTC` inside `<time datetime>` (the exact instant for machines); the date and the
 * time each stay on one line, so a narrow column wraps only between them. With `seconds` as localTimeText's.
 */
export function localTime(ms: number, seconds = false): SafeHtml {
  const d = new Date(ms)
  const formats = formatsOf()
  return html`<time datetime="${d.toISOString()}"><span class="nowrap">${formats.date.format(d)}</span> <span class="nowrap">${(seconds ? formats.seconds : formats.time).format(d)}</span></time>`
}

/**
 * The same words as plain text, for a date inside a sentence that is escaped as a whole. With `seconds`
 * (`25 Nov 2026 00:41:07 UTC`) where moments a few seconds apart must be told apart: a folder's or a file's history.
 */
export function localTimeText(ms: number, seconds = false): string {
  const d = new Date(ms)
  const formats = formatsOf()
  return `${formats.date.format(d)} ${(seconds ? formats.seconds : formats.time).format(d)}`
}
