// The profile (name and links, picture, password), backup and pod status pages: plain forms that post to
// the same server code the JSON API uses.

import type { Deps } from '../deps.ts'
import { asSentence, breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { HttpError } from '../http/errors.ts'
import { localTime, localTimeText } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { PROFILE_LABELS, readProfile } from './profile.ts'
import { readPodStatus } from './pod-status.ts'
import { podStatusRows } from './pod-status-rows.ts'
import { MIN_PASSWORD_LENGTH } from '../lib/password-rules.ts'
import { countOf } from '../lib/count-words.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'resources'>

/** What the profile page says after a form's change: the text is ours, by `done`; `ended` is a count. */
function profileNotice(done: unknown, ended: unknown): string | undefined {
  if (done === 'password') {
    const n = typeof ended === 'string' && /^\d{1,6}$/.test(ended) ? Number(ended) : 0
    return `Password changed. ${n === 0 ? 'No other browser was signed in.' : `Signed out in ${countOf(n, 'other browser')}.`}`
  }
  return done === 'saved' ? 'Profile saved' : done === 'unchanged' ? 'Nothing changed' : done === 'picture' ? 'Picture saved' : undefined
}

/** A refused new password, shown at the field it is about (by its code); other refusals get the error page. */
export interface PasswordProblem {
  readonly field: 'current' | 'new' | 'confirm'
  readonly error: HttpError
}
const PROBLEM_FIELD: Record<string, PasswordProblem['field']> = { wrong_current_password: 'current', weak_password: 'new', passwords_differ: 'confirm' }
export const passwordProblemOf = (err: unknown): PasswordProblem | undefined => {
  const field = err instanceof HttpError ? PROBLEM_FIELD[err.code] : undefined
  return field && err instanceof HttpError ? { field, error: err } : undefined
}

export async function showProfilePage(
  deps: AdminDeps & Pick<Deps, 'resources'>,
  cookieHeader: string | null,
  query: { done?: unknown; ended?: unknown },
  problem?: PasswordProblem,
): Promise<Response> {
  const profile = await readProfile(deps)
  const notice = profileNotice(query.done, query.ended)
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Your profile',
    section: ADMIN_PATHS.profile,
    ...(notice ? { notice } : {}),
    ...(problem ? { status: problem.error.status } : {}),
    body: csrf => html`<p class="muted">Shown to anyone who reads your WebID <code>${breakableUrl(profile.webid)}</code></p>
<section class="panel"><h2>Name and links</h2>
<form method="post" action="${ADMIN_PATHS.profile}">${csrfField(csrf)}
${Object.entries(profile.fields).map(
  ([name, f]) => html`<label for="profile-${name}">${PROFILE_LABELS[name as keyof typeof PROFILE_LABELS]}</label>
<input type="${f.iri ? 'url' : 'text'}" id="profile-${name}" name="${name}" value="${f.value ?? ''}">`,
)}
<button type="submit">Save profile</button></form></section>
<section class="panel" aria-labelledby="picture-h"><h2 id="picture-h">Picture</h2>
${profile.fields.picture?.value ? html`<img class="avatar" id="picture-shown" src="${profile.fields.picture.value}" alt="Your picture" referrerpolicy="no-referrer">` : html`<img class="avatar" id="picture-shown" alt="" hidden>`}
<form method="post" action="${ADMIN_PATHS.profilePicture}" enctype="multipart/form-data">${csrfField(csrf)}
<label for="picture-file">Picture file (PNG, JPEG, GIF or WebP; anyone may see it)</label><input type="file" id="picture-file" name="picture" data-enhance="picture-preview" data-preview="picture-shown" accept="image/png,image/jpeg,image/gif,image/webp" required>
<button type="submit">Upload picture</button></form></section>
${passwordForm(csrf, problem)}`,
  })
}

/** The new password (admin/change-password.ts checks it); a refusal about a field shows this form again, the problem at that field. */
function passwordForm(csrf: string, problem?: PasswordProblem): SafeHtml {
  const input = (field: PasswordProblem['field'], id: string, name: string, label: string, autocomplete: string, hint?: string) => {
    const bad = problem?.field === field
    const described = [hint ? `${id}-hint` : '', bad ? `${id}-error` : ''].filter(Boolean).join(' ')
    return html`<label for="${id}">${label}</label>${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
<input type="password" id="${id}" name="${name}" autocomplete="${autocomplete}"${autocomplete === 'new-password' ? html` minlength="${MIN_PASSWORD_LENGTH}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${bad ? html` aria-invalid="true" autofocus` : ''} required>
${bad ? html`<p class="field-error" id="${id}-error">${asSentence(problem!.error.description)} <span class="code">Error code: <code>${problem!.error.code}</code></span></p>` : ''}`
  }
  return html`<section class="panel" aria-labelledby="password-h"><h2 id="password-h">Password</h2>
<p class="muted">Changing it signs you out in every other browser, and ends the app sessions they approved.</p>
<form method="post" action="${ADMIN_PATHS.password}">${csrfField(csrf)}
${input('current', 'password-current', 'current', 'Current password', 'current-password')}
${input('new', 'password-new', 'password', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters.`)}
${input('confirm', 'password-confirm', 'confirm', 'New password again', 'new-password')}
<button type="submit">Change password</button></form></section>`
}

export async function showBackupPage(deps: AdminDeps & Pick<Deps, 'backups'>, cookieHeader: string | null): Promise<Response> {
  const last = await deps.backups.last()
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Backup',
    section: ADMIN_PATHS.backup,
    body: csrf => html`<p id="last-backup">${
      last
        ? html`Your last backup was made ${localTime(Date.parse(last.at))} (${last.via === 'download' ? 'downloaded here' : 'with solopod export'}, ${last.resources} resources).`
        : 'No backup has been made of this pod yet.'
    }</p>
<p>The whole pod as one file: every document and file, access rules, your account and the apps you allowed, taken at one instant.
Restore it into a new data directory with <code>solopod import FILE --data DIR</code>.</p>
<p class="warning">Keep it private: it holds your password hash and the pod's signing keys.</p>
<form method="post" action="${ADMIN_PATHS.backup}" data-enhance="follow-backup">${csrfField(csrf)}<button type="submit">Download a backup</button></form>`,
  })
}

export async function showStatusPage(deps: AdminDeps & Parameters<typeof readPodStatus>[0], cookieHeader: string | null): Promise<Response> {
  const rows = podStatusRows(await readPodStatus(deps), iso => localTimeText(Date.parse(iso)))
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Pod status',
    section: ADMIN_PATHS.status,
    body: () => html`<dl class="pod-status">${rows.map(r => html`<dt>${r.label}</dt><dd${r.warning ? html` class="warning"` : ''}>${r.text}</dd>`)}</dl>`,
  })
}
