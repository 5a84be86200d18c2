// The owner's pages that need no JavaScript: one layout (heading, the sections' links, a notice
// after a change) around each page's body, and the CSRF token its forms carry.

import { csrfTokenFor } from '../http/csrf.ts'
import { html, renderPage, type NextSteps, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'

const SECTIONS = [
  { href: ADMIN_PATHS.files, label: 'Files' },
  { href: ADMIN_PATHS.share, label: 'Sharing' },
  { href: ADMIN_PATHS.sessions, label: 'Apps and sessions' },
  { href: ADMIN_PATHS.credentialsPage, label: 'Scripts and bots' },
  { href: ADMIN_PATHS.liveUpdates, label: 'Live updates' },
  { href: ADMIN_PATHS.profile, label: 'Profile' },
  { href: ADMIN_PATHS.backup, label: 'Backup' },
  { href: ADMIN_PATHS.status, label: 'Pod status' },
  { href: ADMIN_PATHS.dashboard, label: 'Dashboard (with JavaScript)' },
] as const

/** A form's hidden CSRF field; the page that shows it sets the cookie it must equal. */
export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`

export interface BasicPage {
  readonly heading: string
  /** The section this page belongs to (marked in the links). */
  readonly section: string
  readonly notice?: string
  /** A form page shown again with what was refused (its problem in the body): the refusal's status. */
  readonly status?: number
  body(csrf: string): SafeHtml
}

export function renderBasicPage(cookieHeader: string | null, baseUrl: string, page: BasicPage): Promise<Response> {
  const { token, setCookie } = csrfTokenFor(cookieHeader, baseUrl)
  const nav = html`<ul class="dash-nav">${SECTIONS.map((s) => html`<li><a href="${s.href}"${s.href === page.section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul>`
  return renderPage('admin/basic.html', page.heading, {
    heading: page.heading, nav,
    notice: page.notice ? html`<p class="notice" role="status">${page.notice}</p>` : undefined,
    body: page.body(token),
  }, { status: page.status ?? 200, headers: setCookie ? { 'set-cookie': setCookie } : {} })
}

/** After a form's change: back to a page of these, which says what was done (the text is ours, by code). */
export const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } })

/** Error pages of these forms lead back to where the owner was. */
export const backTo = (href: string, label: string, heading?: string): NextSteps =>
  ({ ...(heading ? { heading } : {}), hint: 'Go back, correct what the message says, and try again.', links: [{ href, label }] })
