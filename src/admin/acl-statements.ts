// An ACL document's statements as the owner's pages read them: through the operations layer, as the owner, so
// they see what the owner may read there and nothing the layer would refuse them.

import type { Deps } from '../deps.ts'
import type { DocumentDataset } from '../rdf/graph-statements.ts'
import { ownerActing, whenMissing } from './owner-acting.ts'

/** The statements of the ACL document at `aclUrl`, or undefined when there is none (its resource has no rules of its own). */
export function readAclStatements(deps: Pick<Deps, 'cfg' | 'resources'>, aclUrl: string): Promise<DocumentDataset | undefined> {
  const { baseUrl } = deps.cfg
  return deps.resources.statements(ownerActing(baseUrl), aclUrl.slice(baseUrl.length)).catch(whenMissing(undefined))
}
