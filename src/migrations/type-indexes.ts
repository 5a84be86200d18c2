// Data format 3: a pod made before gets the preferences file and the type indexes first start now writes,
// linked as apps expect, without replacing anything of the owner's.

import { DataFactory } from '../lib/n3.ts'
import type { Quad } from '@rdfjs/types'
import type { Store } from '../store/open-store.ts'
import { getMeta, readTriples } from '../store/resources.ts'
import { getRecordedBaseUrl } from '../store/base-url.ts'
import { getOwnerAccount } from '../account/owner-account.ts'
import { ownerWebIdOf } from '../config.ts'
import { PIM, SOLID } from '../rdf/namespaces.ts'
import { PROFILE_PATH } from '../policy/pod-essentials.ts'
import { addStatements, settingsDocuments, SETTINGS_PATHS, writeDocument, type PodDocument } from '../first-start.ts'

const { namedNode, quad } = DataFactory

/**
 * Writes each settings document that is absent (never one that exists, whoever wrote it), then links what the
 * profile and the preferences file lack. A preferences file or type index the profile already names is the
 * owner's and is kept: only the missing links are added. Every step is one synced write and looks before it
 * writes, so a run cut short by a crash is simply run again at the next start. Returns what it added.
 */
export async function addTypeIndexes(store: Store, now: number): Promise<string[]> {
  const baseUrl = await getRecordedBaseUrl(store)
  // No owner yet: first start has not finished, and writes all of this itself when it does.
  if (baseUrl === undefined || !(await getOwnerAccount(store))) return []
  const webid = ownerWebIdOf(baseUrl)
  const me = namedNode(webid)
  const local = (url: string) => (url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : undefined)
  const added: string[] = []

  const profile = await getMeta(store, PROFILE_PATH)
  // A missing or non-RDF profile is restored by first start's repair, from a template that links the defaults.
  const profileTriples = profile?.kind === 'rdf' ? await readTriples(store, baseUrl, PROFILE_PATH) : []
  const linked = (triples: readonly Quad[], predicate: string) =>
    triples.find(q => q.subject.value === webid && q.predicate.value === predicate && q.object.termType === 'NamedNode')?.object.value
  const preferences = linked(profileTriples, PIM('preferencesFile')) ?? baseUrl + SETTINGS_PATHS.preferences
  const publicIndex = linked(profileTriples, SOLID('publicTypeIndex')) ?? baseUrl + SETTINGS_PATHS.publicIndex
  const preferencesPath = local(preferences)
  const preferencesMeta = preferencesPath === undefined ? undefined : await getMeta(store, preferencesPath)
  const preferencesTriples = preferencesMeta?.kind === 'rdf' ? await readTriples(store, baseUrl, preferencesPath!) : []
  const privateLinked = linked(preferencesTriples, SOLID('privateTypeIndex')) ?? linked(profileTriples, SOLID('privateTypeIndex'))
  // A private type index is made only where a preferences file of this pod will name it: ours, or the owner's.
  const ourPreferences = preferencesPath === SETTINGS_PATHS.preferences && preferencesMeta === undefined
  const privateIndex = privateLinked ?? (ourPreferences || preferencesMeta?.kind === 'rdf' ? baseUrl + SETTINGS_PATHS.privateIndex : undefined)

  // The documents the links end at that are absent, each after its ACL; an ACL only with the document it is
  // for, never for one that exists. A private one gets an ACL of its own when /settings/ exists without one
  // (the owner's container, under an ACL that may let others read).
  const wanted = new Set([preferences, publicIndex, privateIndex].flatMap(url => (url === undefined ? [] : [local(url)])))
  const settingsAcl = `${SETTINGS_PATHS.container}.acl`
  const settingsExists = !!(await getMeta(store, SETTINGS_PATHS.container))
  const ours = !settingsExists || !!(await getMeta(store, settingsAcl))
  for (const doc of settingsDocuments(webid, publicIndex)) {
    const target = doc.path === settingsAcl ? SETTINGS_PATHS.container : doc.path.replace(/\.acl$/, '')
    const needed =
      target === SETTINGS_PATHS.container
        ? !settingsExists && [...wanted].some(p => p?.startsWith(SETTINGS_PATHS.container))
        : wanted.has(target) && (target === doc.path || !(await getMeta(store, target)))
    if (!needed || (await getMeta(store, doc.path))) continue
    if (!ours && target === doc.path && target !== SETTINGS_PATHS.publicIndex && !(await getMeta(store, `${doc.path}.acl`))) {
      await write(ownerOnlyAcl(doc.path, webid))
    }
    await write(doc)
  }
  async function write(doc: PodDocument) {
    await writeDocument(store, baseUrl!, doc, now)
    added.push(doc.path)
  }

  // The private type index is named in the preferences file, which only the owner reads (Type Indexes).
  const prefs = preferencesPath === undefined ? undefined : await getMeta(store, preferencesPath)
  if (
    privateIndex !== undefined &&
    privateLinked === undefined &&
    prefs?.kind === 'rdf' &&
    linked(await readTriples(store, baseUrl, preferencesPath!), SOLID('privateTypeIndex')) === undefined
  ) {
    await addStatements(store, baseUrl, preferencesPath!, prefs, [quad(me, namedNode(SOLID('privateTypeIndex')), namedNode(privateIndex))], now)
    added.push(`${preferencesPath} statements`)
  }
  const profileLinks = [
    [PIM('preferencesFile'), preferences],
    [SOLID('publicTypeIndex'), publicIndex],
  ] as const
  const missingLinks = profileLinks.filter(([predicate]) => linked(profileTriples, predicate) === undefined)
  if (profile?.kind === 'rdf' && missingLinks.length > 0) {
    await addStatements(
      store,
      baseUrl,
      PROFILE_PATH,
      profile,
      missingLinks.map(([p, o]) => quad(me, namedNode(p), namedNode(o))),
      now,
    )
    added.push(`${PROFILE_PATH} statements`)
  }
  return added
}

/** An ACL giving the owner alone a document of /settings/, for a /settings/ without an ACL of its own. */
const ownerOnlyAcl = (path: string, webid: string): PodDocument => ({
  path: `${path}.acl`,
  kind: 'rdf',
  ttl: `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${webid}>; acl:accessTo <${path.slice(path.lastIndexOf('/') + 1)}>; acl:mode acl:Read, acl:Write, acl:Control.`,
})
