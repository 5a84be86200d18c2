// /.admin/keys: the owner's HttpSig keys (documents in /keys/) listed and revoked, and a form that publishes a
// new key's public JWK, without JavaScript; the form and the JSON API call the same functions (keys.ts).
//
// Why the pod never makes the key pair itself: a private key made on the server would pass through the pod's
// memory and the HTTP answer, and any proxy, log or cache on that way; the key lets its holder act with every
// access given to it (as the owner, if linked). So the private half is made where it will be kept: with
// JavaScript this page's script makes it in the browser (WebCrypto) and offers it once as a download
// (static/admin/keys.ts); without it the person makes it themselves (openssl, a library) and pastes the public JWK.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { listOwnerKeys, type ListedKey } from '../auth/httpsig/owner-key-documents.ts'
import { createKey, revokeKey } from './keys.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'

type AdminDeps = Parameters<typeof createKey>[0] & Pick<Deps, 'resources'>

const DONE: Record<string, string> = { published: 'Key published', revoked: 'Key revoked: requests signed with it are refused from now on' }
export const keysPage = (done?: string) => `${ADMIN_PATHS.keysPage}${done ? `?done=${done}` : ''}`

function row(k: ListedKey, csrf: string): SafeHtml {
  return html`<tr><td data-label="Name" class="words">${k.name}</td>
<td data-label="Key URL"><a href="${k.documentUrl}"><code>${breakableUrl(k.keyUrl)}</code></a></td>
<td data-label="Fingerprint">${k.thumbprint ? html`<code>${breakableUrl(k.thumbprint)}</code>` : html`<span class="field-error">unusable: ${k.problem ?? 'unknown'}</span>`}</td>
<td data-label="Signs as you" class="words">${k.linkedFromProfile ? 'yes (linked from your profile)' : 'no'}</td>
<td data-label="Created" class="words">${localTime(Date.parse(k.modified))}</td>
<td><form method="post" action="${ADMIN_PATHS.keysRevoke}" data-enhance="confirm" data-confirm="Revoke the key ${k.name}? Requests signed with it are refused from now on, wherever it was given access. This cannot be undone.">${csrfField(csrf)}<input type="hidden" name="name" value="${k.name}"><button type="submit" class="small secondary" aria-label="Revoke key ${k.name}">Revoke</button></form></td></tr>`
}

export async function showKeysPage(deps: AdminDeps, cookieHeader: string | null, done: unknown): Promise<Response> {
  const keys = await listOwnerKeys(deps.store, deps.cfg.baseUrl)
  const notice = typeof done === 'string' ? DONE[done] : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Signing keys',
    section: ADMIN_PATHS.keysPage,
    ...(notice ? { notice } : {}),
    body: csrf => html`<p class="muted">Scripts and apps sign requests with a private key (HTTP Message Signatures); your pod publishes only the public key at its URL. Give a key access in Sharing (Who: Key) or with a grant; a key linked from your profile can also act as you.</p>
<div id="key-offer-slot"></div>
<section class="panel" aria-labelledby="keys-h"><h2 id="keys-h">Your keys</h2>
<div class="table-wrap"><table class="stack" id="keys-table"><thead><tr><th scope="col">Name</th><th scope="col">Key URL</th><th scope="col">Fingerprint</th><th scope="col">Signs as you</th><th scope="col">Created</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${keys.length ? keys.map(k => row(k, csrf)) : html`<tr><td colspan="6" class="muted">No keys yet</td></tr>`}</tbody></table></div></section>
<section class="panel" aria-labelledby="new-key-h"><h2 id="new-key-h">New key</h2>
<form method="post" action="${ADMIN_PATHS.keysPage}" class="row-form" id="new-key-form" data-enhance="make-key">${csrfField(csrf)}
<p class="muted" data-no-script>Make the key pair where you will keep it (for example <code>openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256</code>, then convert the public half to a JWK) and paste only the public JWK here. Your pod never receives a private key: with JavaScript on, this page makes the pair in your browser instead.</p>
<div><label for="key-name">Name</label><input type="text" id="key-name" name="name" placeholder="laptop" autocomplete="off" spellcheck="false" maxlength="64" aria-describedby="key-name-hint"><p class="hint" id="key-name-hint">Letters, digits, “.”, “_” or “-”; leave empty for a dated name</p></div>
<div data-no-script><label for="key-jwk">Public JWK</label><textarea id="key-jwk" name="publicJwk" rows="4" spellcheck="false" placeholder='{ "kty": "EC", "crv": "P-256", "x": "…", "y": "…" }'></textarea></div>
<label class="check" for="key-as-owner"><input type="checkbox" id="key-as-owner" name="linkFromProfile" value="yes" aria-describedby="key-as-owner-hint"> It may act as me: link it from my profile</label>
<p class="hint" id="key-as-owner-hint">Requests signed with it that send cred="&lt;your WebID&gt;" then have all your access. Without this, it has only what Sharing and grants give its URL.</p>
<div><button type="submit">Publish key</button></div></form></section>`,
  })
}

/** The form as the API's body; the JWK is parsed here so a paste that is not JSON is said to be one. Never logged. */
export async function submitKeyForm(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const raw = typeof form.publicJwk === 'string' ? form.publicJwk.trim() : ''
  if (!raw) throw new HttpError(400, 'invalid_key', 'Public JWK: paste the public key as a JWK, { "kty": "EC", "crv": "P-256", "x": …, "y": … }')
  let publicJwk: unknown
  try {
    publicJwk = JSON.parse(raw)
  } catch {
    throw new HttpError(400, 'invalid_key', 'Public JWK: that is not JSON; paste the public key as a JWK')
  }
  const name = typeof form.name === 'string' ? form.name.trim() : ''
  await createKey(deps, 'application/json', JSON.stringify({ ...(name ? { name } : {}), publicJwk, linkFromProfile: form.linkFromProfile === 'yes' }))
  return seeOther(keysPage('published'))
}

export async function submitKeyRevoke(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const name = typeof form.name === 'string' ? form.name : ''
  if (!name) throw new HttpError(400, 'invalid_field', 'name: expected the name of a key of the list')
  await revokeKey(deps, name)
  return seeOther(keysPage('revoked'))
}
