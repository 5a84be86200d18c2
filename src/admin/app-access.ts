// What each approved app may reach, seen and changed by the owner: the dashboard's page
// and the JSON API. The change holds from the app's next request.

import type { Deps } from '../deps.ts'
import { getConsent } from '../account/consents.ts'
import { folderChoices, type FolderScope } from '../account/app-scopes.ts'
import { describeFolders, parseFolderScopes, readAccessChoice } from '../policy/app-scope.ts'
import { renderAccessChoice } from '../http/access-choice-form.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { log } from '../log.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { readablePath } from '../lib/readable-path.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'now' | 'appScopes'>

/** What the API shows of an app's reach: everything, or its folders with their names as people read them. */
export interface AppAccessView {
  readonly full: boolean
  readonly folders: readonly { readonly path: string; readonly name: string; readonly right: FolderScope['right'] }[]
  /** In words: what the app may do, as the RS will enforce it. */
  readonly summary: string
}

const FULL_SUMMARY = 'everything you can reach: read, change and share'
const IDENTITY_SUMMARY = 'nothing beyond what is public: it only confirms who you are'

export function accessView(folders: readonly FolderScope[] | undefined): AppAccessView {
  if (!folders) return { full: true, folders: [], summary: FULL_SUMMARY }
  if (folders.length === 0) return { full: false, folders: [], summary: IDENTITY_SUMMARY }
  return { full: false, folders: folders.map(f => ({ path: f.path, name: readablePath(f.path), right: f.right })), summary: `only ${describeFolders(folders)}` }
}

export const readAppAccess = async (deps: AdminDeps, clientId: string) => accessView(await deps.appScopes.foldersOf(clientId))

async function requireApproved(deps: AdminDeps, clientId: string) {
  const consent = await getConsent(deps.store, clientId, deps.now())
  if (!consent)
    throw new HttpError(404, 'not_found', `no approved app has client id ${JSON.stringify(clientId.slice(0, 200))}; it must sign in and be allowed first`)
  return consent
}

async function changeAccess(deps: AdminDeps, clientId: string, folders: FolderScope[] | undefined) {
  await deps.appScopes.set(clientId, folders, deps.now())
  log.info('admin.app_access_changed', { clientId, access: folders ? describeFolders(folders) : 'full' })
  return accessView(folders)
}

/**
 * PUT /.admin/api/apps/access?client_id=…: `{"full": true}` or `{"folders": [{"path": "/photos/", "right": "read"|"write"}]}`;
 * `{"folders": []}` is "Only confirm who I am", as on the consent page.
 */
export async function putAppAccess(deps: AdminDeps, clientId: string | undefined, body: unknown): Promise<AppAccessView> {
  if (!clientId) throw new HttpError(400, 'invalid_request', 'client_id is required: the app whose access changes')
  const b = body as { full?: unknown; folders?: unknown } | null
  const shape = 'send {"full": true}, or {"folders": [{"path": "/photos/", "right": "read" or "write"}]}'
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new HttpError(400, 'invalid_request', shape)
  let folders: FolderScope[] | undefined
  if (b.full === true) folders = undefined
  else if (Array.isArray(b.folders) && b.folders.every(f => typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.right === 'string')) {
    folders = b.folders.length === 0 ? [] : parseFolderScopes(b.folders as { path: string; right: string }[], deps.cfg.baseUrl)
  } else throw new HttpError(400, 'invalid_request', shape)
  await requireApproved(deps, clientId)
  return changeAccess(deps, clientId, folders)
}

/** GET /.admin/apps/access?client_id=…: the choice of the consent page, as it stands now. */
export async function showAppAccessPage(deps: AdminDeps, cookieHeader: string | null, clientId: string | undefined): Promise<Response> {
  if (!clientId) throw new HttpError(400, 'invalid_request', 'client_id is required: the app whose access to show')
  const consent = await requireApproved(deps, clientId)
  const current = await deps.appScopes.foldersOf(clientId)
  const rows = await folderChoices(
    deps.store,
    (current ?? []).map(f => ({ path: f.path, right: f.right })),
  )
  const name = consent.clientName ?? clientId
  return renderOwnerPage(deps, cookieHeader, {
    heading: `What ${name} may reach`,
    section: ADMIN_PATHS.sessions,
    body: csrf => html`<p>App <code>${breakableUrl(clientId)}</code> may now reach ${accessView(current).summary}.</p>
<form method="post" action="${ADMIN_PATHS.appAccess}">${csrfField(csrf)}<input type="hidden" name="client_id" value="${clientId}">
${renderAccessChoice(rows, current === undefined ? 'full' : current.length === 0 ? 'identity' : 'folders')}
<p class="muted">The change holds from the app's next request.</p>
<button type="submit">Save</button> <a class="button secondary" href="${ADMIN_PATHS.sessions}">Cancel</a></form>`,
  })
}

/** POST /.admin/apps/access (form, CSRF checked by the caller). */
export async function submitAppAccessPage(deps: AdminDeps, form: Record<string, unknown>): Promise<string> {
  const clientId = typeof form.client_id === 'string' ? form.client_id : undefined
  if (!clientId) throw new HttpError(400, 'invalid_request', 'client_id is required: the app whose access changes')
  const folders = readAccessChoice(form, deps.cfg.baseUrl)
  await requireApproved(deps, clientId)
  return (await changeAccess(deps, clientId, folders)).summary
}
