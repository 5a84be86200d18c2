// The profile, backup and status pages without JavaScript: plain forms that post to the same server code
// the dashboard's script uses.

import type { Deps } from '../deps.ts'
import { breakableUrl, html } from '../http/html-page.ts'
import { localTime, localTimeText } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { getLastBackup } from '../store/last-backup.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { PROFILE_LABELS, readProfile } from './profile.ts'
import { readPodStatus } from './pod-status.ts'
import { podStatusRows } from './pod-status-rows.ts'
import { MIN_PASSWORD_LENGTH } from '../lib/password-rules.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>

export async function showProfilePage(deps: AdminDeps, cookieHeader: string | null, done: unknown): Promise<Response> {
  const profile = await readProfile(deps)
  const notice = done === 'saved' ? 'Profile saved' : done === 'unchanged' ? 'Nothing changed' : done === 'password' ? 'Password changed; every other browser is signed out' : done === 'picture' ? 'Picture saved' : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Your profile', section: ADMIN_PATHS.profile, ...(notice ? { notice } : {}),
    body: (csrf) => html`<p class="muted">Shown to anyone who reads your WebID <code>${breakableUrl(profile.webid)}</code></p>
<form method="post" action="${ADMIN_PATHS.profile}">${csrfField(csrf)}
${Object.entries(profile.fields).map(([name, f]) => html`<label for="profile-${name}">${PROFILE_LABELS[name as keyof typeof PROFILE_LABELS]}</label>
<input type="${f.iri ? 'url' : 'text'}" id="profile-${name}" name="${name}" value="${f.value ?? ''}">`)}
<button type="submit">Save profile</button></form>
<section class="panel" aria-labelledby="picture-h"><h2 id="picture-h">Picture</h2>
${profile.fields.picture?.value ? html`<img class="avatar" src="${profile.fields.picture.value}" alt="Your picture" referrerpolicy="no-referrer">` : ''}
<form method="post" action="${ADMIN_PATHS.profilePicture}" enctype="multipart/form-data">${csrfField(csrf)}
<label for="picture-file">Picture file (PNG, JPEG, GIF or WebP; anyone may see it)</label><input type="file" id="picture-file" name="picture" accept="image/png,image/jpeg,image/gif,image/webp" required>
<button type="submit">Upload picture</button></form></section>
${passwordForm(csrf)}`,
  })
}

/** The new password (admin/change-password.ts checks it); a refusal is the error page, leading back here. */
const passwordForm = (csrf: string) => html`<section class="panel" aria-labelledby="password-h"><h2 id="password-h">Password</h2>
<p class="muted">Changing it signs you out in every other browser, and ends the app sessions they approved.</p>
<form method="post" action="${ADMIN_PATHS.password}">${csrfField(csrf)}
<label for="password-current">Current password</label><input type="password" id="password-current" name="current" autocomplete="current-password" required>
<label for="password-new">New password</label><p class="hint" id="password-new-hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<input type="password" id="password-new" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="password-new-hint" required>
<label for="password-confirm">New password again</label><input type="password" id="password-confirm" name="confirm" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
<button type="submit">Change password</button></form></section>`

export async function showBackupPage(deps: AdminDeps, cookieHeader: string | null): Promise<Response> {
  const last = await getLastBackup(deps.store)
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Backup', section: ADMIN_PATHS.backup,
    body: (csrf) => html`<p id="last-backup">${last
      ? html`Your last backup was made ${localTime(Date.parse(last.at))} (${last.via === 'download' ? 'downloaded here' : 'with solopod export'}, ${last.resources} resources).`
      : 'No backup has been made of this pod yet.'}</p>
<p>The whole pod as one file: every document and file, access rules, your account and the apps you allowed, taken at one instant.
Restore it into a new data directory with <code>solopod import FILE --data DIR</code>.</p>
<p class="warning">Keep it private: it holds your password hash and the pod's signing keys.</p>
<form method="post" action="${ADMIN_PATHS.backup}">${csrfField(csrf)}<button type="submit">Download a backup</button></form>`,
  })
}

export async function showStatusPage(deps: AdminDeps & Parameters<typeof readPodStatus>[0], cookieHeader: string | null): Promise<Response> {
  const rows = podStatusRows(await readPodStatus(deps), (iso) => localTimeText(Date.parse(iso)))
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Pod status', section: ADMIN_PATHS.status,
    body: () => html`<dl class="pod-status">${rows.map((r) => html`<dt>${r.label}</dt><dd${r.warning ? html` class="warning"` : ''}>${r.text}</dd>`)}</dl>`,
  })
}
