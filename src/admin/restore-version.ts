// Undo: the owner puts a resource back as it was at a chosen time — an ordinary write of that memento's content
// through the operations layer (resources/versions.ts), itself versioned, so the undo can be undone — or a whole
// folder as it was (resources/version-activity.ts), each resource so.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { FolderRestore } from '../resources/version-activity.ts'
import { isContainerPath } from '../store/paths.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'

type RestoreDeps = Pick<Deps, 'cfg' | 'resources'>

/** What was put back: the path, and when the state it now holds was first written (its memento's datetime). */
export interface RestoredVersion {
  readonly path: string
  readonly restoredFrom: number
  readonly created: boolean
}

const USAGE = 'expected a JSON body {"path": "/a/b.ttl", "datetime": "2026-01-01T12:00:00Z"} (or epoch milliseconds)'

/** `datetime`: epoch ms (a memento's `version`), or a date string such as an HTTP-date or ISO 8601. */
export function timeOf(datetime: unknown): number {
  const at = typeof datetime === 'number' ? datetime : typeof datetime === 'string' ? (/^\d+$/.test(datetime) ? Number(datetime) : Date.parse(datetime)) : NaN
  if (!Number.isSafeInteger(at)) throw new HttpError(400, 'invalid_request', `the time is not a date nor epoch milliseconds; ${USAGE}`)
  return at
}

function pathAndTime(body: unknown): { path: string; at: number } {
  const b = body as { path?: unknown; datetime?: unknown } | null
  if (typeof b?.path !== 'string') throw new HttpError(400, 'invalid_request', USAGE)
  return { at: timeOf(b.datetime), path: podPath(b.path) }
}

/**
 * `POST /.admin/api/restore-version` `{path, datetime}`: the state current at `datetime` is written back.
 */
export async function restoreVersion(deps: RestoreDeps, body: unknown): Promise<RestoredVersion> {
  const { path, at } = pathAndTime(body)
  const who = ownerActing(deps.cfg.baseUrl)
  const { from } = await deps.resources.mementoAt(who, path, at)
  const { created } = await deps.resources.restoreVersion(who, path, from)
  return { path, restoredFrom: from, created }
}

/** The state written at `from` (a memento's `version`) back, as the owner: the history's and the activity's forms. */
export async function restoreVersionFrom(deps: RestoreDeps, path: string, from: number): Promise<RestoredVersion> {
  const { created } = await deps.resources.restoreVersion(ownerActing(deps.cfg.baseUrl), path, from)
  return { path, restoredFrom: from, created }
}

/** `POST /.admin/api/restore-folder` `{path, datetime}`: the folder as it was then; what was made since is deleted (versioned). */
export async function restoreFolder(deps: RestoreDeps, body: unknown): Promise<FolderRestore & { path: string; at: number }> {
  const { path, at } = pathAndTime(body)
  return { path, at, ...(await restoreFolderAt(deps, path, at)) }
}

export function restoreFolderAt(deps: RestoreDeps, path: string, at: number): Promise<FolderRestore> {
  if (!isContainerPath(path)) throw new HttpError(400, 'invalid_request', `${path} is not a folder: restore it with restore-version`)
  return deps.resources.restoreFolder(ownerActing(deps.cfg.baseUrl), path, at)
}
