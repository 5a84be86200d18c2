// Writes and deletes that would leave the owner's identity unusable are refused, whoever sends them
// (apps and the dashboard's pages and script all write through here): see policy/pod-essentials.ts.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import type { NewContent } from '../store/resources.ts'
import { isAcl } from '../store/acl-names.ts'
import {
  affectsEssentialAccess,
  lostEssentialAccess,
  missingProfileStatements,
  PROFILE_PATH,
  protectedReason,
  storedAclLoader,
} from '../policy/pod-essentials.ts'
import type { ResourcesDeps } from './acting.ts'

/** DELETE of the WebID document or /keys/: 409 `protected_resource`; of an ACL they need: 409 `protected_access`. */
export async function checkEssentialDelete(deps: Pick<ResourcesDeps, 'store' | 'cfg'>, path: string): Promise<void> {
  const reason = protectedReason(path)
  if (reason !== undefined) throw new HttpError(409, 'protected_resource', reason)
  if (isAcl(path)) await checkEssentialAccess(deps, path, undefined, 'removing this ACL')
}

/**
 * PUT or PATCH, with the document's new state: the WebID document keeps the statements every app and pod
 * needs (409 `webid_statement_required`), and an ACL keeps the pod's essential access (409 `protected_access`).
 */
export async function checkEssentialWrite(deps: Pick<ResourcesDeps, 'store' | 'cfg'>, path: string, content: NewContent): Promise<void> {
  if (path === PROFILE_PATH) checkProfileStatements(deps.cfg.baseUrl, content)
  if (isAcl(path) && content.triples) await checkEssentialAccess(deps, path, content.triples, 'this ACL')
}

function checkProfileStatements(baseUrl: string, content: NewContent) {
  if (content.kind !== 'rdf') {
    throw new HttpError(409, 'webid_statement_required', `${PROFILE_PATH} is the owner's WebID document: it must stay an RDF document (Turtle or JSON-LD)`)
  }
  const missing = missingProfileStatements(content.triples ?? [], baseUrl)
  if (missing.length === 0) return
  throw new HttpError(
    409,
    'webid_statement_required',
    `${PROFILE_PATH} is the owner's WebID document and must keep ` +
      missing.map(m => `${m.turtle} (${m.why})`).join(' and ') +
      `; this write would drop ${missing.length > 1 ? 'them: keep those statements' : 'it: keep that statement'} and send the document again`,
  )
}

/** Evaluates the pod's ACLs as they would be after the write (`triples`; undefined: the ACL is gone), before committing it. */
async function checkEssentialAccess(deps: Pick<ResourcesDeps, 'store' | 'cfg'>, aclPath: string, triples: readonly Quad[] | undefined, what: string) {
  if (!affectsEssentialAccess(aclPath)) return
  const { store, cfg } = deps
  const lost = await lostEssentialAccess(storedAclLoader(store, cfg.baseUrl, { aclPath, triples }), cfg.baseUrl)
  if (lost.length === 0) return
  throw new HttpError(
    409,
    'protected_access',
    `${what} would take away ${lost.map(l => l.why).join('; ')}. ` +
      "The pod and every app depend on that access: keep an acl:Authorization that gives it (acl:agent the owner's WebID, " +
      'or acl:agentClass foaf:Agent with no acl:origin for the public)',
  )
}
