// Who is signed in, as the dashboard's header shows it: the profile's name and picture (the WebID only when
// the profile has no name), and Sign out — a form posting to the OP's logout (RP-Initiated Logout 1.0), which
// needs no script.

import type { Deps } from '../deps.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { readProfile } from './profile.ts'

export async function dashboardWho(deps: Pick<Deps, 'cfg' | 'store'>, csrf: string): Promise<SafeHtml> {
  const { webid, fields } = await readProfile(deps)
  const name = fields.name?.value
  const picture = fields.picture?.value
  // The picture may be any site's image: it learns nothing of where the dashboard is
  const img = picture ? html`<img class="avatar-small" id="who-picture" src="${picture}" alt="" referrerpolicy="no-referrer">` : ''
  const who = name ? html`<strong id="who-name">${name}</strong>` : html`<code id="who-name">${breakableUrl(webid)}</code>`
  return html`<div class="dash-who">${img}<p class="muted">Signed in as ${who}</p>
<form class="inline" method="post" action="${OP_PATHS.endSession}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="confirm" value="yes"><button type="submit" class="small secondary">Sign out</button></form></div>`
}
