// First start on an empty data directory: the owner's WebID profile, root storage and ACLs.

import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import type { Store } from './store/open-store.ts'
import { writeResource } from './store/resources.ts'
import { turtleByteLength } from './rdf/serialize-rdf.ts'
import { getOwnerAccount, saveOwnerAccount } from './account/owner-account.ts'
import type { WebId } from './account/ids.ts'
import { ownerWebIdOf } from './config.ts'
import { getRecordedBaseUrl, recordBaseUrl } from './store/base-url.ts'
import { KEYS_PATH } from './http/pod-paths.ts'
import { getMeta, readTriples } from './store/resources.ts'
import { DataFactory } from 'n3'
import { lostEssentialAccess, missingProfileStatements, PROFILE_PATH, storedAclLoader } from './policy/pod-essentials.ts'
import { aclOf } from './store/acl-names.ts'
import { log } from './log.ts'
import { UserError } from './lib/user-error.ts'

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
    // HttpSig key documents: anyone verifying a signature must be able to read them; only the owner writes.
    { path: KEYS_PATH, kind: 'container', ttl: '' },
    {
      path: `${KEYS_PATH}.acl`, kind: 'rdf', ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    },
  ]
}

export class BaseUrlMismatchError extends UserError {}

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
    if (await getOwnerAccount(store)) {
      await repairEssentials(store, baseUrl, now)
      return false
    }
  }
  const webid = ownerWebIdOf(baseUrl) as WebId
  for (const doc of documents(baseUrl, webid)) await writeDocument(store, baseUrl, doc, now)
  await saveOwnerAccount(store, { webid, createdAt: now })
  await recordBaseUrl(store, baseUrl)
  return true
}


async function writeDocument(store: Store, baseUrl: string, doc: ReturnType<typeof documents>[number], now: number) {
  const triples = turtle(doc.ttl, baseUrl + doc.path)
  await writeResource(store, baseUrl, doc.path, { kind: doc.kind, contentType: 'text/turtle', triples, size: turtleByteLength(triples, baseUrl + doc.path) }, now)
}

/**
 * A pod damaged before the resource server refused such writes (policy/pod-essentials.ts) gets back, at
 * start: a missing WebID document or /keys/, the statements the WebID document needs, and the first-start
 * ACL of the card or of /keys/ when the public or the owner lost the access they need there.
 */
async function repairEssentials(store: Store, baseUrl: string, now: number) {
  const docs = documents(baseUrl, ownerWebIdOf(baseUrl))
  const restore = async (path: string) => writeDocument(store, baseUrl, docs.find(d => d.path === path)!, now)
  const repaired: string[] = []
  for (const path of [PROFILE_PATH, KEYS_PATH]) {
    if (!await getMeta(store, path)) { await restore(path); repaired.push(path) }
  }
  const card = await getMeta(store, PROFILE_PATH)
  if (card?.kind === 'rdf') {
    const triples = await readTriples(store, baseUrl, PROFILE_PATH)
    const missing = missingProfileStatements(triples, baseUrl)
    if (missing.length > 0) {
      const { namedNode, quad } = DataFactory
      const all = [...triples, ...missing.map(m => quad(namedNode(m.subject), namedNode(m.predicate), namedNode(m.object)))]
      const url = baseUrl + PROFILE_PATH
      await writeResource(store, baseUrl, PROFILE_PATH, { kind: 'rdf', contentType: 'text/turtle', triples: all,
        size: turtleByteLength(all, url, card.prefixes), ...(card.prefixes ? { prefixes: card.prefixes } : {}) }, now)
      repaired.push(`${PROFILE_PATH} statements`)
    }
  } else if (card) {
    await restore(PROFILE_PATH)
    repaired.push(PROFILE_PATH)
  }
  const lost = new Set((await lostEssentialAccess(storedAclLoader(store, baseUrl), baseUrl)).map(l => l.path))
  for (const path of [PROFILE_PATH, KEYS_PATH]) {
    if (lost.has(path)) { await restore(aclOf(path)); repaired.push(aclOf(path)) }
  }
  if (repaired.length > 0) log.warn('start.essentials_repaired', { repaired })
}
