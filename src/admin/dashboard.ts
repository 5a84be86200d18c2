// /.admin/: the owner's dashboard page and its one script (static/admin/), bundled from TypeScript.

import type { Deps } from '../deps.ts'
import type { LoginSession } from '../account/owner-session.ts'
import { csrfTokenFor } from '../http/csrf.ts'
import { renderPage } from '../http/html-page.ts'
import { dashboardWho } from './dashboard-header.ts'
import { readBundle } from '../http/static-files.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>

/**
 * The shell the script fills in. The CSRF token rides in a data attribute: the script sends it as
 * `X-CSRF-Token` on every call (owner API and the resource server's LDP endpoints alike).
 */
export async function renderDashboard(deps: AdminDeps, session: LoginSession, cookieHeader: string | null): Promise<Response> {
  const { baseUrl } = deps.cfg
  const { token, setCookie } = csrfTokenFor(cookieHeader, baseUrl)
  const script = baseUrl + ADMIN_PATHS.dashboardScript
  return renderPage('admin/index.html', 'Dashboard', { csrf: token, base: baseUrl, webid: session.webid, who: await dashboardWho(deps, token), script, sessions: ADMIN_PATHS.sessions },
    { script, headers: setCookie ? { 'set-cookie': setCookie } : {} })
}

export async function dashboardScript(): Promise<Response> {
  return new Response(await readBundle('admin/app.ts'), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
  })
}
