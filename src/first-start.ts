// First start on an empty data directory: the owner's WebID profile, root storage and ACLs.

import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import type { Store } from './store/open-store.ts'
import { writeResource } from './store/resources.ts'
import { turtleByteLength } from './rdf/serialize-rdf.ts'
import { getOwnerAccount, saveOwnerAccount } from './auth/owner-account.ts'
import type { WebId } from './auth/principal.ts'
import { ownerWebIdOf } from './config.ts'
import { getRecordedBaseUrl, recordBaseUrl } from './store/base-url.ts'

const turtle = (text: string, baseIRI: string) => new Parser({ baseIRI }).parse(text) as Quad[]

const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix solid: <http://www.w3.org/ns/solid/terms#>.
@prefix pim: <http://www.w3.org/ns/pim/space#>.
`

function documents(baseUrl: string, webid: string): { path: string; ttl: string; kind: 'rdf' | 'container' }[] {
  return [
    { path: '/', kind: 'container', ttl: `${PREFIXES}<> a pim:Storage; solid:owner <${webid}>.` },
    {
      path: '/.acl', kind: 'rdf', ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>;
  acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    },
    {
      path: '/profile/card', kind: 'rdf', ttl: `${PREFIXES}
<> a foaf:PersonalProfileDocument; foaf:primaryTopic <#me>; foaf:maker <#me>.
<#me> a foaf:Person; solid:oidcIssuer <${baseUrl}>; pim:storage <${baseUrl}/>.`,
    },
    {
      path: '/profile/card.acl', kind: 'rdf', ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <card>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <card>; acl:mode acl:Read.`,
    },
  ]
}

export class BaseUrlMismatchError extends Error {}

/**
 * Creates the owner and the initial documents when the store is empty; otherwise checks that the
 * pod is served at the base URL it was created for (its IRIs, WebID and issuer depend on it).
 * Returns true when this was the first start.
 */
export async function ensureOwner(store: Store, baseUrl: string, now: number): Promise<boolean> {
  const recorded = await getRecordedBaseUrl(store)
  if (recorded !== undefined) {
    if (recorded !== baseUrl) {
      throw new BaseUrlMismatchError(`this data directory belongs to the pod at ${recorded}; start it with --base-url ${recorded} ` +
        '(or export it and import into a new data directory to move it)')
    }
    if (await getOwnerAccount(store)) return false
  }
  const webid = ownerWebIdOf(baseUrl) as WebId
  for (const doc of documents(baseUrl, webid)) {
    const triples = turtle(doc.ttl, baseUrl + doc.path)
    await writeResource(store, baseUrl, doc.path, { kind: doc.kind, contentType: 'text/turtle', triples, size: await turtleByteLength(triples, baseUrl + doc.path) }, now)
  }
  await saveOwnerAccount(store, { webid, createdAt: now })
  await recordBaseUrl(store, baseUrl)
  return true
}

