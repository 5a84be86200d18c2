// What the pod itself depends on, and no request may take away: the owner's WebID document with the
// statements every app and pod reads, the storage root, /keys/, and the access that keeps them usable.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import { ACL, FOAF, PIM, SOLID } from '../rdf/namespaces.ts'
import { ownerWebIdOf } from '../config.ts'
import { KEYS_PATH, SETTINGS_PATHS } from '../http/pod-paths.ts'
import { aclOf, governedBy } from '../store/acl-names.ts'
import type { Store } from '../store/open-store.ts'
import { getMeta, readTriples } from '../store/resources.ts'
import { parseAclDocument, type Authorization } from './acl-document.ts'
import type { AccessMode } from './access-modes.ts'
import { parentContainerOf } from './containment.ts'
import { findEffectiveAcl, type AclLoader } from './wac.ts'

/** The owner's WebID document (the WebID is `<this>#me`). */
export const PROFILE_PATH = '/profile/card'

/** Resources that can never be deleted (the root is refused earlier, with 405): exact paths only. */
const UNDELETABLE: ReadonlyMap<string, string> = new Map([
  [
    PROFILE_PATH,
    `${PROFILE_PATH} is the owner's WebID document: every app and every other pod reads it to check the owner's login ` +
      '(solid:oidcIssuer) and to find the storage (pim:storage), so it cannot be deleted; edit it instead, keeping those statements',
  ],
  [
    KEYS_PATH,
    `${KEYS_PATH} holds the owner's HttpSig key documents, which every verifier reads; it cannot be deleted ` + '(delete or revoke single keys instead)',
  ],
])

/** Why `path` may never be deleted, or undefined when it may. */
export const protectedReason = (path: string): string | undefined => UNDELETABLE.get(path)

/** Why deleting `path` with all it holds is refused: its own reason, or that of something in it (the folder /profile/). */
export const undeletableWithin = (path: string): string | undefined =>
  UNDELETABLE.get(path) ?? (path.endsWith('/') ? [...UNDELETABLE].find(([p]) => p.startsWith(path))?.[1] : undefined)

/**
 * Resources that may be deleted (README.md, "What a new pod holds": the settings are the owner's ordinary documents, a deleted one is
 * not made again) but not moved: the profile links to them by URL, and a move would leave those links
 * naming nothing (the move re-bases IRIs only inside what it moves, store/move-resource.ts).
 */
const SETTINGS_LINKED =
  `is linked from the owner's profile (${PROFILE_PATH}: pim:preferencesFile, solid:publicTypeIndex; ` +
  "the preferences file: solid:privateTypeIndex), where apps look for the owner's data; moving or renaming it would break those links. " +
  'It can be edited, or deleted'
const UNMOVABLE: ReadonlyMap<string, string> = new Map(Object.values(SETTINGS_PATHS).map(p => [p, `${p} ${SETTINGS_LINKED}`]))

/** Why `path` may never be moved or renamed (nor anything it is in), or undefined when it may. */
export const unmovableReason = (path: string): string | undefined => UNDELETABLE.get(path) ?? UNMOVABLE.get(path)

export interface NeededStatement {
  readonly subject: string
  readonly predicate: string
  readonly object: string
  /** The statement as the owner would write it in the profile, and what needs it. */
  readonly turtle: string
  readonly why: string
}

/**
 * The statements of the WebID document the pod cannot work without. Its types (foaf:Person,
 * foaf:PersonalProfileDocument), foaf:primaryTopic and name are the owner's to change: no protocol
 * the pod speaks reads them, and the owner may describe themselves another way (an organization).
 */
export function neededProfileStatements(baseUrl: string): NeededStatement[] {
  const webid = ownerWebIdOf(baseUrl)
  return [
    {
      subject: webid,
      predicate: SOLID('oidcIssuer'),
      object: baseUrl,
      turtle: `<#me> solid:oidcIssuer <${baseUrl}>`,
      why: "Solid-OIDC §4: apps and other pods accept the owner's login only from an issuer the WebID names",
    },
    {
      subject: webid,
      predicate: PIM('storage'),
      object: `${baseUrl}/`,
      turtle: `<#me> pim:storage <${baseUrl}/>`,
      why: "Solid Protocol §4.1: apps find the owner's storage through it",
    },
  ]
}

/** The needed statements a new state of the WebID document lacks (none: it may be written). */
export function missingProfileStatements(triples: readonly Quad[], baseUrl: string): NeededStatement[] {
  return neededProfileStatements(baseUrl).filter(
    n =>
      !triples.some(
        q => q.subject.value === n.subject && q.predicate.value === n.predicate && q.object.termType === 'NamedNode' && q.object.value === n.object,
      ),
  )
}

/** Does a write to the ACL `aclPath` change the effective ACL of a resource listed in `essentialAccessProblems`? */
export function affectsEssentialAccess(aclPath: string): boolean {
  const governed = governedBy(aclPath)
  return [PROFILE_PATH, KEYS_PATH, '/'].some(p => p === governed || (governed.endsWith('/') && p.startsWith(governed)))
}

// The owner counts only by statically known subjects (as the root's loss-of-control check): a group or a
// key may vanish outside the pod's control. The public counts only with no acl:origin limit: apps of any
// origin read the WebID document and key documents in a browser. A rule with a condition (WAC 1.1 ED §4.4)
// counts for neither: it may hold for no app the owner or a reader uses.
const givesOwner = (a: Authorization, webid: string, mode: AccessMode) =>
  a.modes.has(mode) &&
  a.conditions.length === 0 &&
  (a.agents.includes(webid) || a.agentClasses.includes(FOAF('Agent')) || a.agentClasses.includes(ACL('AuthenticatedAgent')))
const givesPublic = (a: Authorization, mode: AccessMode) =>
  a.modes.has(mode) && a.agentClasses.includes(FOAF('Agent')) && a.origins.length === 0 && a.conditions.length === 0

interface Need {
  readonly path: string
  readonly url: string
  readonly newMember?: true
  readonly who: 'owner' | 'public'
  readonly modes: readonly AccessMode[]
  readonly why: string
}

function needs(baseUrl: string): Need[] {
  const card = { path: PROFILE_PATH, url: baseUrl + PROFILE_PATH },
    keys = { path: KEYS_PATH, url: baseUrl + KEYS_PATH }
  return [
    { ...card, who: 'public', modes: ['read'], why: `the public's Read of ${PROFILE_PATH} (every app and pod reads the owner's WebID document)` },
    { ...card, who: 'owner', modes: ['read', 'write', 'control'], why: `the owner's Read, Write and Control of ${PROFILE_PATH}` },
    { path: '/', url: `${baseUrl}/`, who: 'owner', modes: ['control'], why: "the owner's Control of the storage root /" },
    { ...keys, who: 'public', modes: ['read'], why: `the public's Read of ${KEYS_PATH} (HttpSig verifiers read the owner's key documents)` },
    { ...keys, who: 'owner', modes: ['read', 'write', 'control'], why: `the owner's Read, Write and Control of ${KEYS_PATH}` },
    { ...keys, newMember: true, who: 'public', modes: ['read'], why: `the public's Read of new key documents in ${KEYS_PATH} (acl:default)` },
    { ...keys, newMember: true, who: 'owner', modes: ['read', 'write'], why: `the owner's Read and Write of new key documents in ${KEYS_PATH} (acl:default)` },
  ]
}

/** WAC §6.2 for a member of `containerUrl` with no ACL of its own: the nearest ACL's acl:default rules. */
async function inheritedByNewMember(containerUrl: string, loadAcl: AclLoader): Promise<readonly Authorization[]> {
  for (let current: string | undefined = containerUrl; current !== undefined; current = parentContainerOf(current)) {
    const auths = await loadAcl(aclOf(current))
    if (auths !== undefined) return auths.filter(a => a.default.includes(current!))
  }
  return []
}

/** Access the pod needs and the ACLs do not give: on which resource (path), and a phrase saying what it is. */
export interface LostAccess {
  readonly path: string
  readonly why: string
}

/**
 * What the ACLs `loadAcl` answers (the pod's, with one write applied) would take away from the pod's
 * essential access: one entry per lost need, none when all is kept.
 */
export async function lostEssentialAccess(loadAcl: AclLoader, baseUrl: string): Promise<LostAccess[]> {
  const webid = ownerWebIdOf(baseUrl)
  const problems: LostAccess[] = []
  for (const need of needs(baseUrl)) {
    const auths = need.newMember ? await inheritedByNewMember(need.url, loadAcl) : await effectiveRules(need.url, loadAcl)
    const kept = need.modes.every(m => auths.some(a => (need.who === 'public' ? givesPublic(a, m) : givesOwner(a, webid, m))))
    if (!kept) problems.push({ path: need.path, why: need.why })
  }
  return problems
}

/**
 * The pod's ACLs as stored, or as one write would leave them: `change.triples` is the new state of the ACL
 * `change.aclPath` (undefined: deleted). Read afresh, never from the decider's cache.
 */
export function storedAclLoader(store: Store, baseUrl: string, change?: { aclPath: string; triples: readonly Quad[] | undefined }): AclLoader {
  return async aclUrl => {
    const path = aclUrl.slice(baseUrl.length)
    if (change && path === change.aclPath) return change.triples && parseAclDocument(change.triples, aclUrl)
    return (await getMeta(store, path)) ? parseAclDocument(await readTriples(store, baseUrl, path), aclUrl) : undefined
  }
}

// A storage with no root ACL grants nothing (findEffectiveAcl's 500): report it as a loss rather than fail.
async function effectiveRules(url: string, loadAcl: AclLoader): Promise<readonly Authorization[]> {
  try {
    return (await findEffectiveAcl(url, loadAcl)).authorizations
  } catch (err) {
    if (err instanceof HttpError && err.status === 500) return []
    throw err
  }
}
