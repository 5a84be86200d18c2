// Checks on writes to ACL documents: valid rules, an existing subject, and no owner lock-out.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import { getMeta } from '../store/resources.ts'
import { governedBy, isAcl } from '../store/acl-names.ts'
import { assertOwnerKeepsControl, validateAclDocument } from '../policy/acl-document.ts'
import { ownerWebIdOf } from '../config.ts'
import type { ResourcesDeps } from './acting.ts'

export async function checkAclWrite(deps: Pick<ResourcesDeps, 'store' | 'cfg'>, path: string, triples: readonly Quad[]) {
  if (!isAcl(path)) return
  const { baseUrl } = deps.cfg
  const governed = governedBy(path)
  if (!(await getMeta(deps.store, governed))) {
    throw new HttpError(409, 'acl_without_resource', `${governed} does not exist: create it before writing its ACL`)
  }
  validateAclDocument(triples, baseUrl + path, baseUrl + governed)
  // Loss-of-control mitigation (WAC): the owner keeps Control of the storage root.
  if (path === '/.acl') assertOwnerKeepsControl(triples, `${baseUrl}/.acl`, `${baseUrl}/`, ownerWebIdOf(baseUrl))
}
