// First start on an empty data directory: the owner's WebID profile, root storage, settings (preferences file,
// type indexes) and ACLs.

import { DataFactory, Parser } from './lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import type { Store } from './store/open-store.ts'
import { writeResource } from './store/resources.ts'
import { turtleByteLength } from './rdf/serialize-rdf.ts'
import { getOwnerAccount, saveOwnerAccount } from './account/owner-account.ts'
import type { WebId } from './account/ids.ts'
import { ownerWebIdOf } from './config.ts'
import { getRecordedBaseUrl, recordBaseUrl } from './store/base-url.ts'
import { KEYS_PATH, SETTINGS_PATHS } from './http/pod-paths.ts'
import { getMeta, readTriples } from './store/resources.ts'
import type { ResourceMeta } from './store/resource-meta.ts'
import { lostEssentialAccess, missingProfileStatements, PROFILE_PATH, storedAclLoader } from './policy/pod-essentials.ts'
import { aclOf } from './store/acl-names.ts'
import { ancestorPaths } from './store/paths.ts'
import { essentialsState, getEssentialsChecked, recordEssentialsChecked } from './store/essentials-record.ts'
import { log } from './log.ts'
import { UserError } from './lib/user-error.ts'

const turtle = (text: string, baseIRI: string) => new Parser({ baseIRI }).parse(text) as Quad[]

const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix solid: <http://www.w3.org/ns/solid/terms#>.
@prefix pim: <http://www.w3.org/ns/pim/space#>.
@prefix dcterms: <http://purl.org/dc/terms/>.
`

/** One document first start writes: its path and Turtle (relative IRIs resolve against the document). */
export interface PodDocument {
  readonly path: string
  readonly ttl: string
  readonly kind: 'rdf' | 'container'
}

// Where apps look for the owner's settings: http/pod-paths.ts (the owner's moves are checked against it too).
export { SETTINGS_PATHS }

/**
 * The settings documents, each ACL before what it protects: written in this order, one synced batch each, a
 * crash never leaves a private document under a more open ACL (its parent's) for a while. The ACL of
 * /settings/ creates the container in the same batch. The preferences file names both indexes, as the SolidOS
 * data browser (solid-logic) makes it when it finds none: it then finds nothing to write.
 */
export function settingsDocuments(webid: string, publicIndex = 'publicTypeIndex.ttl'): PodDocument[] {
  const s = SETTINGS_PATHS
  return [
    {
      // Private by default, whatever the root's ACL says: the preferences file and the private type index.
      path: `${s.container}.acl`,
      kind: 'rdf',
      ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    },
    {
      // Type Indexes: the public type index is readable by everyone (apps find public data through it).
      path: `${s.publicIndex}.acl`,
      kind: 'rdf',
      ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <publicTypeIndex.ttl>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <publicTypeIndex.ttl>; acl:mode acl:Read.`,
    },
    { path: s.publicIndex, kind: 'rdf', ttl: `${PREFIXES}<> a solid:TypeIndex, solid:ListedDocument.` },
    { path: s.privateIndex, kind: 'rdf', ttl: `${PREFIXES}<> a solid:TypeIndex, solid:UnlistedDocument.` },
    {
      path: s.preferences,
      kind: 'rdf',
      ttl: `${PREFIXES}
<> a pim:ConfigurationFile; dcterms:title "Preferences file".
<${webid}> solid:publicTypeIndex <${publicIndex}>; solid:privateTypeIndex <privateTypeIndex.ttl>.`,
    },
  ]
}

function documents(baseUrl: string, webid: string): PodDocument[] {
  return [
    { path: '/', kind: 'container', ttl: `${PREFIXES}<> a pim:Storage; solid:owner <${webid}>.` },
    {
      path: '/.acl',
      kind: 'rdf',
      ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>;
  acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
    },
    {
      path: '/profile/card',
      kind: 'rdf',
      ttl: `${PREFIXES}
<> a foaf:PersonalProfileDocument; foaf:primaryTopic <#me>; foaf:maker <#me>.
<#me> a foaf:Person; solid:oidcIssuer <${baseUrl}>; pim:storage <${baseUrl}/>;
  pim:preferencesFile <${baseUrl}${SETTINGS_PATHS.preferences}>; solid:publicTypeIndex <${baseUrl}${SETTINGS_PATHS.publicIndex}>.`,
    },
    {
      path: '/profile/card.acl',
      kind: 'rdf',
      ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <card>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <card>; acl:mode acl:Read.`,
    },
    // HttpSig key documents: anyone verifying a signature must be able to read them; only the owner writes.
    { path: KEYS_PATH, kind: 'container', ttl: '' },
    {
      path: `${KEYS_PATH}.acl`,
      kind: 'rdf',
      ttl: `${PREFIXES}
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    },
    ...settingsDocuments(webid),
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
      throw new BaseUrlMismatchError(
        `this data directory belongs to the pod at ${recorded}; start it with --base-url ${recorded} ` +
          '(or export it and import into a new data directory to move it)',
      )
    }
    if (await getOwnerAccount(store)) {
      await checkEssentials(store, baseUrl, now)
      return false
    }
  }
  const webid = ownerWebIdOf(baseUrl) as WebId
  for (const doc of documents(baseUrl, webid)) await writeDocument(store, baseUrl, doc, now)
  await saveOwnerAccount(store, { webid, createdAt: now })
  await recordBaseUrl(store, baseUrl)
  await recordEssentialsChecked(store, await essentialsNow(store, baseUrl))
  return true
}

export async function writeDocument(store: Store, baseUrl: string, doc: PodDocument, now: number) {
  const triples = turtle(doc.ttl, baseUrl + doc.path)
  await writeResource(
    store,
    baseUrl,
    doc.path,
    { kind: doc.kind, contentType: 'text/turtle', triples, size: turtleByteLength(triples, baseUrl + doc.path) },
    now,
  )
}

/**
 * Adds statements to a stored RDF document in one synced write, keeping its other triples and the prefixes it
 * is served with: an owner's document gains what the pod needs and nothing else changes.
 */
export async function addStatements(store: Store, baseUrl: string, path: string, meta: ResourceMeta, added: readonly Quad[], now: number) {
  const all = [...(await readTriples(store, baseUrl, path)), ...added]
  await writeResource(
    store,
    baseUrl,
    path,
    {
      kind: 'rdf',
      contentType: meta.contentType,
      triples: all,
      size: turtleByteLength(all, baseUrl + path, meta.prefixes),
      ...(meta.prefixes ? { prefixes: meta.prefixes } : {}),
    },
    now,
  )
}

// What repairEssentials reads: the WebID document, /keys/, and every ACL the effective ACL of either or of the root
// may come from (WAC: the resource's own, else its nearest container's). Bump the version when repairEssentials
// reads or repairs more, so that every pod is checked again by the new rules.
const ESSENTIALS_CHECK = 'essentials check 1'
const ESSENTIALS_READ = [PROFILE_PATH, KEYS_PATH, ...[PROFILE_PATH, KEYS_PATH].flatMap(p => [p, ...ancestorPaths(p)]).map(aclOf)]
const essentialsNow = (store: Store, baseUrl: string) => essentialsState(store, baseUrl, ESSENTIALS_CHECK, [...new Set(ESSENTIALS_READ)])

/**
 * At a restart, repairEssentials unless this state of the essentials was found whole before: a state no start
 * has checked (a write since, by whatever version of the pod; an import) is checked, then recorded.
 */
async function checkEssentials(store: Store, baseUrl: string, now: number) {
  if ((await getEssentialsChecked(store)) === (await essentialsNow(store, baseUrl))) return
  await repairEssentials(store, baseUrl, now)
  await recordEssentialsChecked(store, await essentialsNow(store, baseUrl))
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
    if (!(await getMeta(store, path))) {
      await restore(path)
      repaired.push(path)
    }
  }
  const card = await getMeta(store, PROFILE_PATH)
  if (card?.kind === 'rdf') {
    const triples = await readTriples(store, baseUrl, PROFILE_PATH)
    const missing = missingProfileStatements(triples, baseUrl)
    if (missing.length > 0) {
      const { namedNode, quad } = DataFactory
      await addStatements(
        store,
        baseUrl,
        PROFILE_PATH,
        card,
        missing.map(m => quad(namedNode(m.subject), namedNode(m.predicate), namedNode(m.object))),
        now,
      )
      repaired.push(`${PROFILE_PATH} statements`)
    }
  } else if (card) {
    await restore(PROFILE_PATH)
    repaired.push(PROFILE_PATH)
  }
  const lost = new Set((await lostEssentialAccess(storedAclLoader(store, baseUrl), baseUrl)).map(l => l.path))
  for (const path of [PROFILE_PATH, KEYS_PATH]) {
    if (lost.has(path)) {
      await restore(aclOf(path))
      repaired.push(aclOf(path))
    }
  }
  if (repaired.length > 0) log.warn('start.essentials_repaired', { repaired })
}
