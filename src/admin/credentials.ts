// The owner's client credentials for scripts and bots, as the dashboard's JSON API and its page without
// JavaScript see them: list, make (the secret is answered once), remove (its tokens refused from then on).

import type { Deps } from '../deps.ts'
import { addClientCredential, listClientCredentials, removeClientCredential, type CredentialSummary } from '../account/client-credentials.ts'
import type { FolderScope } from '../account/app-scopes.ts'
import { describeFolders, parseFolderScopes } from '../policy/app-scope.ts'
import { badRequest } from '../http/errors.ts'
import { OP_PATHS } from '../http/pod-paths.ts'
import { log } from '../log.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'appScopes' | 'revocations'>

export interface CredentialView {
  readonly clientId: string
  readonly name: string
  readonly createdAt: string
  /** When a token was last issued with it; null when never. */
  readonly lastUsedAt: string | null
  /** null: full access as the owner. Paths as stored (percent-encoded). */
  readonly folders: readonly FolderScope[] | null
  /** What it may reach, in words. */
  readonly access: string
}

const iso = (ms: number) => new Date(ms).toISOString()

export const FULL_ACCESS = 'full access as you (everything you may do)'

export const viewOf = (c: CredentialSummary): CredentialView => ({
  clientId: c.clientId,
  name: c.name,
  createdAt: iso(c.createdAt),
  lastUsedAt: c.lastUsedAt === undefined ? null : iso(c.lastUsedAt),
  folders: c.folders ?? null,
  access: c.folders === undefined ? FULL_ACCESS : `only ${describeFolders(c.folders)}`,
})

/** GET /.admin/api/credentials, oldest first. */
export async function readCredentials(deps: AdminDeps): Promise<CredentialView[]> {
  return (await listClientCredentials(deps, deps.now())).map(viewOf)
}

/**
 * POST /.admin/api/credentials `{ name, folders?: [{ path, right: 'read' | 'write' }] }` (no folders, or null:
 * full access as the owner). The one answer that holds the secret; the token endpoint is named for the script.
 */
export async function createCredential(deps: AdminDeps, body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('expected a JSON body {"name": "…", "folders": [{"path": "/photos/", "right": "write"}]}')
  const { name, folders } = body as { name?: unknown; folders?: unknown }
  if (
    folders !== undefined &&
    folders !== null &&
    !(Array.isArray(folders) && folders.every(f => typeof f?.path === 'string' && typeof f?.right === 'string'))
  ) {
    throw badRequest('folders must be a list of {"path": "/photos/", "right": "read" | "write"}, or null for full access')
  }
  return makeCredential(deps, name, folders ?? undefined)
}

/** Makes a credential from the API's or the form's fields; folder entries are checked as the consent page checks them. */
export async function makeCredential(deps: AdminDeps, name: unknown, entries: readonly { path: string; right: string }[] | undefined) {
  const scope = entries === undefined ? undefined : parseFolderScopes(entries, deps.cfg.baseUrl)
  const { credential, secret } = await addClientCredential(deps, typeof name === 'string' ? name : '', scope, deps.now())
  log.info('client_credential.added', { via: 'dashboard', clientId: credential.clientId, folders: scope?.length ?? 'all' })
  return { ...viewOf(credential), clientSecret: secret, tokenEndpoint: deps.cfg.baseUrl + OP_PATHS.token }
}

/** False when there is no such credential. */
export async function removeCredential(deps: AdminDeps, clientId: string): Promise<boolean> {
  const removed = await removeClientCredential(deps, clientId, deps.now())
  if (removed) log.info('client_credential.removed', { via: 'dashboard', clientId })
  return removed
}
