// Who is signed in, as the dashboard's header shows it: the profile's picture (or the name's first letter) and
// name (the WebID, shortened, only when the profile has no name), and Sign out — a form posting to the OP's
// logout (RP-Initiated Logout 1.0), which needs no script.

import type { Deps } from '../deps.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS, OP_PATHS } from '../http/pod-paths.ts'
import { readProfile } from './profile.ts'

/** The WebID without its scheme: a header has room for a name, not a URL. */
const shortWebId = (webid: string) => webid.replace(/^https?:\/\//, '')

/** The header of `deps`' owner: their profile read through the operations layer as the owner (admin/profile.ts). */
export async function dashboardWho(deps: Pick<Deps, 'cfg' | 'resources'>, csrf: string): Promise<SafeHtml> {
  const { webid, fields } = await readProfile(deps)
  const name = fields.name?.value?.trim()
  const picture = fields.picture?.value
  // The picture may be any site's image: it learns nothing of where the dashboard is
  const img = picture
    ? html`<img class="avatar-small" id="who-picture" src="${picture}" alt="" referrerpolicy="no-referrer">`
    : name
      ? html`<span class="avatar-small avatar-letter" aria-hidden="true">${[...name][0]!.toUpperCase()}</span>`
      : ''
  const who = name
    ? html`<span class="who-name" id="who-name">${name}</span>`
    : html`<span class="who-name who-webid" id="who-name" title="${webid}">${shortWebId(webid)}</span>`
  return html`<div class="dash-who"><a class="who" href="${ADMIN_PATHS.profile}" title="Your profile">${img}<span class="visually-hidden">Signed in as </span>${who}</a>
<form class="inline" method="post" action="${OP_PATHS.endSession}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="confirm" value="yes"><button type="submit" class="small secondary">Sign out</button></form></div>`
}
