// `solopod clients add|list|remove`: client credentials for the owner's scripts and bots (RFC 6749 §4.4), made
// by the running server when there is one (through its control socket), otherwise in the stopped pod's database.

import { ConfigError, type Config } from '../config.ts'
import { HttpError } from '../http/errors.ts'
import type { CredentialSummary } from '../account/client-credentials.ts'
import { makeAppScopes } from '../account/app-scopes.ts'
import { makeSessionRevocations } from '../account/app-sessions.ts'
import { makeResourceLocks } from '../store/resource-locks.ts'
import { describeFolders } from '../policy/app-scope.ts'
import { UserError } from '../lib/user-error.ts'
import { requestClientsAction, type ClientOp } from '../server/control-socket.ts'
import { credentialActions, type ClientCredentialActions, type ScopeEntry } from '../server/client-credential-actions.ts'
import { withStoppedPod } from './stopped-pod.ts'

class ClientsCommandError extends UserError {}

/** `--scope /photos/` reads and writes; `--scope read:/notes/` only reads (`write:` may be said too). Paths start with `/` or are URLs, so the prefix is never a folder's name. */
export function scopeEntryOf(arg: string): ScopeEntry {
  const m = /^(read|write):(.*)$/s.exec(arg)
  return m ? { right: m[1]!, path: m[2]! } : { right: 'write', path: arg }
}

/** What a credential may reach, in the words the dashboard uses. */
export const accessOf = (c: Pick<CredentialSummary, 'folders'>) =>
  c.folders === undefined ? 'with full access (no --scope: everything the owner may do)' : `only ${describeFolders(c.folders)}`

export async function clientsCommand(cfg: Config): Promise<void> {
  const [sub, id] = cfg.args
  if (sub === 'add') return addCommand(cfg)
  if (sub === 'list') {
    const list = await onPod<CredentialSummary[]>(cfg, 'list', {}, a => a.list())
    if (list.length === 0) console.error('solopod: no client credentials; make one with solopod clients add --name N [--scope /folder/]')
    for (const c of list) {
      console.log(
        [
          c.clientId,
          c.name,
          accessOf(c),
          `created ${new Date(c.createdAt).toISOString()}`,
          c.lastUsedAt === undefined ? 'never used' : `last used ${new Date(c.lastUsedAt).toISOString()}`,
        ].join('\t'),
      )
    }
    return
  }
  if (!(await onPod<boolean>(cfg, 'remove', { id }, a => a.remove(id!))))
    throw new ClientsCommandError(`there is no client credential ${JSON.stringify(id)} (see solopod clients list)`)
  console.error(`solopod: removed ${id}; its tokens are refused from their next request`)
}

/** Prints exactly two lines on stdout, `client_id=…` and `client_secret=…`, for scripts to read; the rest goes to stderr. */
async function addCommand(cfg: Config): Promise<void> {
  const name = cfg.keyName
  if (name === undefined) throw new ConfigError('clients add needs --name N: what the script is for, e.g. --name "Photo backup"')
  const scope = cfg.scopes.length > 0 ? cfg.scopes.map(scopeEntryOf) : undefined
  const added = await onPod<{ credential: CredentialSummary; secret: string }>(cfg, 'add', { name, scope }, a => a.add(name, scope))
  console.error(
    `solopod: client credential "${added.credential.name}" acts as the pod's owner, ` +
      `${accessOf(added.credential)}. The secret is shown only now (the pod keeps its hash): keep it like a password. ` +
      `Remove it with: solopod clients remove ${added.credential.clientId}`,
  )
  console.log(`client_id=${added.credential.clientId}\nclient_secret=${added.secret}`)
}

/** The running server does it (its database is locked to it); without one, this process on the stopped pod. */
async function onPod<R>(cfg: Config, op: ClientOp, body: Record<string, unknown>, local: (a: ClientCredentialActions) => Promise<R>): Promise<R> {
  const remote = await requestClientsAction(cfg.dataDir, op, body)
  if (remote !== undefined) return remote.answer as R
  return withStoppedPod(cfg.dataDir, `clients ${op}`, (store, baseUrl) => {
    const keeper = { store, appScopes: makeAppScopes(store, baseUrl, makeResourceLocks()), revocations: makeSessionRevocations(store) }
    // A folder or name the pod refuses is the operator's to correct: its message, exit code 2
    return local(credentialActions(keeper, baseUrl, Date.now)).catch((err: unknown) => {
      throw err instanceof HttpError ? new ClientsCommandError(err.description) : err
    })
  })
}
