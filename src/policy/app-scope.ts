// What an app the owner limited to some folders keeps of a decision: the modes its folder gives, as far
// as the rules allow the owner (the intersection), never Control, so it cannot widen its own reach. An
// app limited to no folders ("Only confirm who I am") keeps only what the public may.

import type { FolderRight, FolderScope } from '../account/app-scopes.ts'
import { badRequest, HttpError } from '../http/errors.ts'
import { resolveTarget } from '../store/target.ts'
import { isAcl } from '../store/acl-names.ts'
import type { AccessDecision } from './access-decision.ts'
import type { AccessMode } from './access-modes.ts'
import { readablePath } from '../lib/readable-path.ts'
import type { AccessKind } from '../http/access-choice-form.ts'

const MODES_OF: Record<FolderRight, readonly AccessMode[]> = { read: ['read'], write: ['read', 'append', 'write'] }

/**
 * The modes the folders give on `path` (a stored path): the union of every folder that holds it. None on
 * an ACL: reading or writing one is what acl:Control gives (WAC §5), and a limited app never has it.
 */
export function scopeModes(folders: readonly FolderScope[], path: string): Set<AccessMode> {
  const modes = new Set<AccessMode>()
  if (isAcl(path)) return modes
  for (const f of folders) if (path.startsWith(f.path)) for (const m of MODES_OF[f.right]) modes.add(m)
  return modes
}

/** What is public stays public: the app could read it without any token. */
export function withinAppScope(d: AccessDecision, folders: readonly FolderScope[], baseUrl: string): AccessDecision {
  const path = d.target.startsWith(baseUrl + '/') ? d.target.slice(baseUrl.length) : undefined
  const inScope = path === undefined ? new Set<AccessMode>() : scopeModes(folders, path)
  const modes = new Set([...d.modes].filter(m => inScope.has(m) || d.publicModes.has(m)))
  if (modes.size === d.modes.size) return d
  const outside = new Set([...d.modes].filter(m => !modes.has(m)))
  return {
    ...d,
    modes,
    outsideAppScope: { modes: outside, allowed: describeFolders(folders) },
    reasons: [...d.reasons, `the owner allowed this app only ${describeFolders(folders)}`],
  }
}

export const describeFolders = (folders: readonly FolderScope[]) =>
  folders.length === 0
    ? 'to confirm who the owner is, nothing beyond what is public'
    : folders.map(f => `${f.right === 'read' ? 'to read' : 'to read and write'} ${readablePath(f.path)}`).join(', ')

const badFolder = (why: string) => new HttpError(400, 'invalid_scope', why)

/**
 * A file or folder as the owner names it (a path, encoded or not, or a URL of this pod) → its stored path: the same
 * canonical form request targets take, so "/Holiday Photos/" and "/Holiday%20Photos/" agree. `refuse` makes the
 * refusal of each face (an app's folder, a share link's path) from what was wrong.
 */
export function ownerNamedPath(input: string, baseUrl: string, refuse: (why: string) => HttpError): string {
  const text = input.trim()
  if (text === '') throw refuse('a path must be named, such as /photos/')
  // A lone % (not an escape) is the character itself: "/100% done/" names that folder; and a name may
  // hold # and ? (a path here, never a URL with a query or a fragment): "/a#b/" must not become "/a/"
  const raw = (text.startsWith(baseUrl + '/') ? text.slice(baseUrl.length) : text)
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
    .replace(/#/g, '%23')
    .replace(/\?/g, '%3F')
  if (!raw.startsWith('/'))
    throw refuse(`${JSON.stringify(text.slice(0, 80))} must be a path on this pod starting with / (such as /photos/) or a URL under ${baseUrl}/`)
  try {
    return resolveTarget(baseUrl, raw).path
  } catch (err) {
    throw refuse(`${JSON.stringify(text.slice(0, 80))} is not a usable path: ${err instanceof HttpError ? err.description : 'malformed'}`)
  }
}

/** A folder as the owner names it → its stored path, ending in `/`. */
export function folderPathOf(input: string, baseUrl: string): string {
  if (input.trim() === '') throw badFolder('a folder must be named: a path such as /photos/')
  const path = ownerNamedPath(input, baseUrl, why => badFolder(`folder ${why}`))
  return path.endsWith('/') ? path : `${path}/`
}

/** Folders from a form or the API: at most this many, each named once (the widest right wins). */
export const MAX_SCOPE_FOLDERS = 50

export function parseFolderScopes(entries: readonly { path: string; right: string }[], baseUrl: string): FolderScope[] {
  if (entries.length === 0) throw badFolder('choose at least one folder, or give the app full access')
  if (entries.length > MAX_SCOPE_FOLDERS) throw badFolder(`an app may be given at most ${MAX_SCOPE_FOLDERS} folders; give it a common parent folder instead`)
  const byPath = new Map<string, FolderRight>()
  for (const e of entries) {
    if (e.right !== 'read' && e.right !== 'write')
      throw badFolder(
        `the right on ${JSON.stringify(e.path.slice(0, 80))} must be "read" or "write" (read and write); got ${JSON.stringify(String(e.right).slice(0, 20))}`,
      )
    const path = folderPathOf(e.path, baseUrl)
    if (byPath.get(path) !== 'write') byPath.set(path, e.right)
  }
  return [...byPath].map(([path, right]) => ({ path, right }))
}

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)])

/**
 * A form's answer (the consent page, the dashboard's page without script): `access` identity, folders or
 * full, then `folder` and `right` in pairs, and one `new_folder` with `new_right`. Undefined for full
 * access; no folders for "Only confirm who I am" and for "only these folders" with none given, which
 * mean the same (never a dead end). `absent`: what a form without the choice means (one from before
 * scopes existed: full access). `identity: false` (a script's credential, which has no use for a sign-in
 * only): the choice is not offered, and no folder given is refused.
 */
export function readAccessChoice(
  form: Record<string, unknown>,
  baseUrl: string,
  o: { absent?: AccessKind; identity?: boolean } = {},
): FolderScope[] | undefined {
  const { absent = 'full', identity = true } = o
  const access = form.access ?? absent
  if (access === 'full') return undefined
  if (access === 'identity' && identity) return []
  if (access !== 'folders') throw badRequest(`access must be ${identity ? '"identity", ' : ''}"folders" or "full"`)
  const folders = list(form.folder)
  const rights = list(form.right)
  if (folders.length !== rights.length) throw badRequest('every folder needs its access (the form was altered)')
  const chosen = folders.map((path, i) => ({ path, right: rights[i]! })).filter(e => e.right !== 'none')
  const extra = typeof form.new_folder === 'string' ? form.new_folder.trim() : ''
  if (extra !== '') chosen.push({ path: extra, right: typeof form.new_right === 'string' ? form.new_right : 'write' })
  if (chosen.length === 0 && identity) return []
  return parseFolderScopes(chosen, baseUrl)
}
