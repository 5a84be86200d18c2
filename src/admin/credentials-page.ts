// /.admin/credentials, the Scripts and bots page: the client credentials of scripts and bots, a form to make one
// (its secret shown once, on the answer to that form), a Remove form per credential, and how to mount the pod as a
// drive with one (WebDAV with HTTP Basic: the pod's address, the client id as user name, the secret as password).

import type { Deps } from '../deps.ts'
import { renderAccessChoice } from '../http/access-choice-form.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readAccessChoice } from '../policy/app-scope.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { makeCredential, readCredentials, type CredentialView } from './credentials.ts'

type AdminDeps = Parameters<typeof readCredentials>[0] & Pick<Deps, 'cfg' | 'store' | 'resources'>

const cell = (label: string, content: unknown) => html`<td data-label="${label}">${content}</td>`
/** The row's form: no column name beside it on a phone, the button says what it does. */
const actionCell = (content: unknown) => html`<td class="row-action">${content}</td>`

function rowOf(c: CredentialView, csrf: string) {
  return html`<tr>${cell('Name', html`<strong>${c.name}</strong><br><code>${c.clientId}</code>`)}${cell('May reach', c.access)}
${cell('Made', localTime(Date.parse(c.createdAt)))}${cell('Last used', c.lastUsedAt ? localTime(Date.parse(c.lastUsedAt)) : html`<span class="muted">never</span>`)}
${actionCell(html`<form class="inline" method="post" action="${ADMIN_PATHS.credentialsRemove}" data-enhance="confirm" data-confirm="Remove the credential “${c.name}”? Its tokens are refused from their next request, and it gets no new ones.">${csrfField(csrf)}<input type="hidden" name="id" value="${c.clientId}"><button type="submit" class="small secondary" aria-label="Remove ${c.name}">Remove</button></form>`)}</tr>`
}

/** The secret, once: on the answer to the form that made it, never in a URL or a later page. */
const madeBox = (
  made: CredentialView & { clientSecret: string; tokenEndpoint: string },
) => html`<section class="notice secret-once" id="new-credential" role="status" aria-labelledby="made-h">
<h2 id="made-h">Credential “${made.name}” made</h2>
<p>Copy the secret now: it is shown only this once (the pod keeps only its hash). Keep it like a password.</p>
<pre>client_id=${made.clientId}
client_secret=${made.clientSecret}</pre>
<p>To mount the pod as a drive with it (see “Connect a phone or computer” below): user name <code>${made.clientId}</code>, password the client_secret.</p>
<p class="muted">A script trades them, with a DPoP proof, for an access token at <code>${breakableUrl(made.tokenEndpoint)}</code> (grant_type=client_credentials); see docs/apps.md, "Scripts and bots".</p>
</section>`

/**
 * How to mount the pod as a drive (WebDAV, docs/apps.md "Mount your pod"): the address in a read-only field a script
 * adds a Copy button to (without it, the field is selected and copied as any text), then each system's steps.
 */
const connectDrive = (address: string) => html`<section aria-labelledby="drive-h" id="connect-drive"><h2 id="drive-h">Connect a phone or computer</h2>
<p>Your pod opens as a drive in a phone's or computer's file manager (WebDAV). Make a credential above for the device, then give it:</p>
<dl class="drive-facts">
<dt><label for="drive-address">Address</label></dt><dd><input type="text" readonly id="drive-address" value="${address}" aria-label="Address of your pod" data-enhance="copy-link"></dd>
<dt><strong>User name</strong></dt><dd>the credential's id, under its name in the list above (its <code>client_id</code>)</dd>
<dt><strong>Password</strong></dt><dd>its secret (<code>client_secret</code>), shown once when it is made</dd>
</dl>
<p class="muted">A credential limited to some folders shows the device only those.</p>
<ul class="drive-steps">
<li><strong>iPhone or iPad</strong> (Files): Browse, the ⋯ button, <em>Connect to Server</em>; type the address, choose <em>Registered User</em>, then the user name and password.</li>
<li><strong>Android</strong>: a file manager that speaks WebDAV (Material Files, Solid Explorer, …): add a WebDAV server with the address, user name and password.</li>
<li><strong>Mac</strong> (Finder): Go, <em>Connect to Server…</em> (⌘K); type the address, Connect, then <em>Registered User</em> with the user name and password.</li>
<li><strong>Windows</strong> (File Explorer): This PC, <em>Map network drive…</em>; type the address as the folder, tick <em>Connect using different credentials</em>, then the user name and password. Windows sends a password only over https.</li>
<li><strong>rclone</strong>: <code>rclone config create pod webdav url=${address} vendor=other user=CLIENT_ID pass=$(rclone obscure CLIENT_SECRET)</code>, then <code>rclone sync ~/Photos pod:Photos</code>.</li>
</ul>
</section>`

export async function showCredentialsPage(
  deps: AdminDeps,
  cookieHeader: string | null,
  o: { done?: unknown; made?: Parameters<typeof madeBox>[0] } = {},
): Promise<Response> {
  const list = await readCredentials(deps)
  const made: SafeHtml | string = o.made ? madeBox(o.made) : ''
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Scripts and bots',
    section: ADMIN_PATHS.credentialsPage,
    ...(o.done === 'removed' ? { notice: 'Credential removed: its tokens are refused from now on' } : {}),
    body: csrf => html`${made}<p class="muted">A client credential lets a script or bot act as you, without a browser: it gets short-lived DPoP tokens with its id and secret.
Limit it to some folders; without a limit it has full access as you. Removing it makes its tokens refused on their next request.</p>
<div class="table-wrap"><table class="stack" id="credentials-table">
<thead><tr><th scope="col">Name</th><th scope="col">May reach</th><th scope="col">Made</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${list.length === 0 ? html`<tr><td colspan="5" class="muted">No client credentials yet</td></tr>` : list.map(c => rowOf(c, csrf))}</tbody>
</table></div>
<section aria-labelledby="make-h"><h2 id="make-h">Make a credential</h2>
<form method="post" action="${ADMIN_PATHS.credentialsAdd}">${csrfField(csrf)}
<label for="credential-name">Name (what the script is for)</label>
<input type="text" id="credential-name" name="name" required maxlength="100" placeholder="Photo backup">
${renderAccessChoice([], 'folders', { identity: false })}
<button type="submit">Make credential</button></form></section>
<p class="muted">One folder per form here; <code>solopod clients add --scope</code> takes several at once.</p>
${connectDrive(deps.cfg.baseUrl + '/')}`,
  })
}

/** POST /.admin/credentials/add: the page again, with the new credential's secret. */
export async function addCredentialFromForm(deps: AdminDeps, cookieHeader: string | null, form: Record<string, unknown>): Promise<Response> {
  const made = await makeCredential(deps, form.name, readAccessChoice(form, deps.cfg.baseUrl, { identity: false }))
  return showCredentialsPage(deps, cookieHeader, { made })
}
