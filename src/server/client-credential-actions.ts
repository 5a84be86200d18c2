// `solopod clients add|list|remove`: the same three actions whether the running server does them (asked on
// its control socket) or the command itself on a stopped pod's database.

import {
  addClientCredential,
  listClientCredentials,
  removeClientCredential,
  type CredentialKeeper,
  type CredentialSummary,
} from '../account/client-credentials.ts'
import { parseFolderScopes } from '../policy/app-scope.ts'

/** A folder as the command line names it, before the pod resolves it: `path` as given, `right` read or write. */
export interface ScopeEntry {
  readonly path: string
  readonly right: string
}

export interface ClientCredentialActions {
  /** `scope` undefined: full access as the owner. Throws an HttpError naming a folder that is not usable. */
  add(name: string, scope: readonly ScopeEntry[] | undefined): Promise<{ credential: CredentialSummary; secret: string }>
  list(): Promise<CredentialSummary[]>
  remove(clientId: string): Promise<boolean>
}

export function credentialActions(keeper: CredentialKeeper, baseUrl: string, now: () => number): ClientCredentialActions {
  return {
    add: async (name, scope) => addClientCredential(keeper, name, scope === undefined ? undefined : parseFolderScopes(scope, baseUrl), now()),
    list: async () => listClientCredentials(keeper, now()),
    remove: async clientId => removeClientCredential(keeper, clientId, now()),
  }
}
