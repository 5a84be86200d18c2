// The owner's dashboard: every page is rendered here and works without JavaScript; the one script
// (static/admin/app.ts, built by `bun run build:ui`) enhances what the page marks with `data-enhance`.
// One layout — who is signed in with Sign out, the sections, a notice after a change — around each
// page's body, and the CSRF token its forms (and the script's requests) carry.

import type { Deps } from '../deps.ts'
import { csrfTokenFor } from '../http/csrf.ts'
import { html, renderPage, type NextSteps, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { dashboardWho } from './dashboard-header.ts'
import { versionedScriptUrl } from './dashboard.ts'

const SECTIONS = [
  { href: ADMIN_PATHS.files, label: 'Files' },
  { href: ADMIN_PATHS.activity, label: 'Activity' },
  { href: ADMIN_PATHS.share, label: 'Sharing' },
  { href: ADMIN_PATHS.links, label: 'Links' },
  { href: ADMIN_PATHS.sessions, label: 'Apps and sessions' },
  { href: ADMIN_PATHS.credentialsPage, label: 'Scripts and bots' },
  { href: ADMIN_PATHS.liveUpdates, label: 'Live updates' },
  { href: ADMIN_PATHS.grantsPage, label: 'Grants' },
  { href: ADMIN_PATHS.keysPage, label: 'Keys' },
  { href: ADMIN_PATHS.profile, label: 'Profile' },
  { href: ADMIN_PATHS.backup, label: 'Backup' },
  { href: ADMIN_PATHS.status, label: 'Pod status' },
] as const

export type Section = (typeof SECTIONS)[number]['href']

/** A form's hidden CSRF field; the page that shows it sets the cookie it must equal. */
export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`

export interface OwnerPage {
  readonly heading: string
  /** The section this page belongs to (marked in the links). */
  readonly section: Section
  readonly notice?: string
  /** A form page shown again with what was refused (its problem in the body): the refusal's status. */
  readonly status?: number
  body(csrf: string): SafeHtml
}

type PageDeps = Pick<Deps, 'cfg' | 'store' | 'resources'>

export async function renderOwnerPage(deps: PageDeps, cookieHeader: string | null, page: OwnerPage): Promise<Response> {
  const { baseUrl } = deps.cfg
  const { token, setCookie } = csrfTokenFor(cookieHeader, baseUrl)
  const nav = html`<ul class="dash-nav">${SECTIONS.map(s => html`<li><a href="${s.href}"${s.href === page.section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul>`
  // The policy names the script's path (a source expression has no query); the page, its current version.
  const script = baseUrl + ADMIN_PATHS.dashboardScript
  return renderPage(
    'admin/page.html',
    page.heading,
    {
      heading: page.heading,
      nav,
      csrf: token,
      base: baseUrl,
      script: await versionedScriptUrl(script),
      who: await dashboardWho(deps, token),
      notice: page.notice ? html`<p class="notice" role="status">${page.notice}</p>` : undefined,
      body: page.body(token),
    },
    { script, status: page.status ?? 200, headers: setCookie ? { 'set-cookie': setCookie } : {} },
  )
}

/** After a form's change: back to a page of these, which says what was done (the text is ours, by code). */
export const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } })

/** Error pages of these forms lead back to where the owner was. */
export const backTo = (href: string, label: string, heading?: string): NextSteps => ({
  ...(heading ? { heading } : {}),
  hint: 'Go back, correct what the message says, and try again.',
  links: [{ href, label }],
})
