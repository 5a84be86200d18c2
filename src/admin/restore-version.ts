// Undo: the owner puts a resource back as it was at a chosen time — an ordinary write of that memento's content
// through the operations layer (resources/versions.ts), itself versioned, so the undo can be undone.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { ownerActing } from './owner-acting.ts'
import { podPath } from './browse.ts'

/** What was put back: the path, and when the state it now holds was first written (its memento's datetime). */
export interface RestoredVersion { readonly path: string; readonly restoredFrom: number; readonly created: boolean }

/**
 * `POST /.admin/api/restore-version` `{path, datetime}`: `datetime` is a time (epoch ms, as a memento's
 * `version`, or a date string such as an HTTP-date or ISO 8601); the state current then is written back.
 */
export async function restoreVersion(deps: Pick<Deps, 'cfg' | 'resources'>, body: unknown): Promise<RestoredVersion> {
  const b = body as { path?: unknown; datetime?: unknown } | null
  const at = typeof b?.datetime === 'number' ? b.datetime : typeof b?.datetime === 'string' ? Date.parse(b.datetime) : NaN
  if (typeof b?.path !== 'string' || !Number.isSafeInteger(at)) {
    throw new HttpError(400, 'invalid_request', 'expected a JSON body {"path": "/a/b.ttl", "datetime": "2026-01-01T12:00:00Z"} (or epoch milliseconds)')
  }
  const path = podPath(b.path)
  const who = ownerActing(deps.cfg.baseUrl)
  const { from } = await deps.resources.mementoAt(who, path, at)
  const { created } = await deps.resources.restoreVersion(who, path, from)
  return { path, restoredFrom: from, created }
}
