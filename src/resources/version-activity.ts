// The pod's history for whoever controls it: the changes kept as versions (store/versions.ts) across the pod,
// newest first; one resource's; and a folder put back as it was at a time, each resource an ordinary versioned PUT.

import { HttpError } from '../http/errors.ts'
import { getMeta } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { padTime } from '../store/version-record.ts'
import { NO_PRECONDITIONS, type Preconditions } from './preconditions.ts'
import { isStateAt, type ResourceMeta } from '../store/resource-meta.ts'
import {
  firstVersionSpan,
  isCreationTimeKey,
  pathOfVersionKey,
  versionKeyOfTimeKey,
  type CreationRecord,
  type ChangeAuthor,
  type VersionRecord,
} from '../store/versions.ts'
import type { VersionEnd } from '../store/version-record.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'
import type { VersionReads } from './versions.ts'

export type { VersionEnd } from '../store/version-record.ts'
/** What a change did: ended a state (a version's end), or created the resource (`create`: no earlier state). */
export type ChangeKind = VersionEnd | 'create'

/**
 * One change: the state of `path` written at `from`, ended at `until` by `by`, as `end` says; for a creation, the
 * state it made (`from` and `until` both the creation's time).
 */
export interface ChangeEntry {
  readonly path: string
  readonly from: number
  readonly until: number
  readonly end: ChangeKind
  /** A move's destination. */
  readonly to?: string
  readonly by?: ChangeAuthor
  /** The state the change replaced or removed (the memento written at `from`). */
  readonly meta: ResourceMeta
}

export interface ChangeQuery {
  /** Only changes at this path or under this folder (a path ending in `/`). */
  readonly folder?: string
  /** Only changes made with this app (client id). */
  readonly client?: string
  /** Only changes that ended a state this way (the deletions: `delete` and `trash`). */
  readonly ends?: readonly ChangeKind[]
  /** A page after the first: the `next` of the page before. */
  readonly after?: string
  readonly limit: number
}

export interface ChangePage {
  readonly changes: ChangeEntry[]
  readonly next?: string
}

/**
 * What a folder's restore did: the resources written back, those already as they were, those that did not exist then
 * and were not created since (they stay: nothing says when they came), and those created in the folder since, now
 * deleted (each a versioned delete: in Recently deleted, to be put back). A folder created since that still holds
 * something not created since (moved in) stays, in `kept`.
 */
export interface FolderRestore {
  readonly restored: string[]
  readonly unchanged: string[]
  readonly absentThen: string[]
  readonly removed: string[]
  readonly kept: string[]
}

export interface VersionActivity {
  /** The changes kept, newest first (the one change's order, then the path's), a page of them. */
  changes(who: Acting, query: ChangeQuery): Promise<ChangePage>
  /** One resource's kept states, newest first, and its current state; 404 `memento_not_found` when it has neither. */
  history(who: Acting, path: string): Promise<{ current?: ResourceMeta; versions: ChangeEntry[] }>
  /**
   * Every resource at or under `folder` that existed at `at` gets its state of then back (`restoreVersion`, each
   * a PUT decided as one, itself versioned); what did not exist then stays as it is.
   */
  restoreFolder(who: Acting, folder: string, at: number): Promise<FolderRestore>
}

const rangeOf = (folder?: string) => (folder ? { gte: folder, lt: `${folder}\uffff` } : {})
const entryOf = (key: string, r: VersionRecord): ChangeEntry => ({
  path: pathOfVersionKey(key),
  from: r.from,
  until: r.until,
  end: r.end,
  ...(r.to !== undefined ? { to: r.to } : {}),
  ...(r.by ? { by: r.by } : {}),
  meta: r.meta,
})
// Keys read from the time index per step: a page unfiltered is 50, so one step and its records.
const CHUNK = 64
const zip = <A, B>(as: readonly A[], bs: readonly B[]) => as.map((a, i) => [a, bs[i]] as [A, B])

/**
 * Control of the pod's root, as the trash's listing: the history names what was anywhere in the pod, ACL documents
 * too, and who changed it. The owner keeps that Control whatever the ACLs say.
 */
/** The layer's LDP DELETE (delete-resource.ts): decided as one, and versioned. */
type Delete = (who: Acting, path: string, preconditions: Preconditions) => Promise<void>

export function makeVersionActivity(deps: ResourcesDeps, versions: Pick<VersionReads, 'mementoAt' | 'restoreVersion'> & { delete: Delete }): VersionActivity {
  const { store, cfg } = deps
  const controlOfRoot = (who: Acting) => decide(deps, who, '/', [{ url: `${cfg.baseUrl}/`, modes: ['control'] }])

  async function keysUnder(folder?: string): Promise<string[]> {
    const keys: string[] = []
    // Keys only: a record holds a document's statements, read for the page shown alone.
    for await (const key of store.versions.keys(rangeOf(folder))) keys.push(key)
    return keys
  }

  /** The memento current at `at`, or undefined when none is kept (it did not exist then, or nothing of then is kept). */
  async function stateAt(who: Acting, path: string, at: number): Promise<number | undefined> {
    try {
      return (await versions.mementoAt(who, path, at)).from
    } catch (err) {
      if (err instanceof HttpError && err.code === 'memento_not_found') return undefined
      throw err
    }
  }

  /** The changes time index keys name: a version's record, or a creation's (the index entry's own value). */
  async function entriesOf(timeKeys: readonly string[]): Promise<(ChangeEntry | undefined)[]> {
    const versionKeys = timeKeys.filter(t => !isCreationTimeKey(t))
    const creationKeys = timeKeys.filter(isCreationTimeKey)
    const records = new Map(zip(versionKeys, await store.versions.getMany(versionKeys.map(versionKeyOfTimeKey))))
    const created = new Map(zip(creationKeys, creationKeys.length ? await store.versionTimes.getMany(creationKeys) : []))
    return timeKeys.map(t => {
      const record = records.get(t)
      if (record) return entryOf(versionKeyOfTimeKey(t), record)
      const value = created.get(t)
      if (value === undefined) return undefined
      const c = JSON.parse(value) as CreationRecord
      return {
        path: pathOfVersionKey(versionKeyOfTimeKey(t)),
        from: c.meta.modified,
        until: c.meta.modified,
        end: 'create',
        ...(c.by ? { by: c.by } : {}),
        meta: c.meta,
      }
    })
  }

  /** The paths under `folder` (not the folder itself) created after `at`, from the creations the time index keeps. */
  async function createdSince(folder: string, at: number): Promise<Set<string>> {
    const out = new Set<string>()
    for await (const key of store.versionTimes.keys({ gt: padTime(at + 1) })) {
      if (!isCreationTimeKey(key)) continue
      const path = pathOfVersionKey(versionKeyOfTimeKey(key))
      if (path !== folder && path.startsWith(folder)) out.add(path)
    }
    return out
  }

  return {
    async changes(who, query) {
      await controlOfRoot(who)
      // Newest first from the time index (store/version-record.ts versionTimeKey: the change's time, then the
      // version's key, so a batch's changes, such as a folder deleted, keep one order): a page unfiltered reads its
      // page's keys and records and one key more; a filter reads on until its page is full. The index key is the cursor.
      const byRecord = query.client !== undefined || query.ends !== undefined
      const filtered = byRecord || query.folder !== undefined
      const keys = store.versionTimes.keys({ reverse: true, ...(query.after !== undefined ? { lt: query.after } : {}) })
      const changes: ChangeEntry[] = []
      let last = ''
      try {
        for (;;) {
          const step = await keys.nextv(filtered ? CHUNK : Math.min(CHUNK, query.limit - changes.length + 1))
          if (step.length === 0) return { changes }
          let pending = query.folder === undefined ? step : step.filter(t => versionKeyOfTimeKey(t).startsWith(query.folder!))
          while (pending.length > 0) {
            // A key past a full page says there is a next one; its record is read only when a record decides.
            if (!byRecord && changes.length === query.limit) return { changes, next: last }
            const chunk = byRecord ? pending : pending.slice(0, query.limit - changes.length)
            pending = pending.slice(chunk.length)
            for (const [j, entry] of (await entriesOf(chunk)).entries()) {
              if (!entry) continue // thinned or expired since the keys were read
              if (query.client !== undefined && entry.by?.client !== query.client) continue
              if (query.ends && !query.ends.includes(entry.end)) continue
              if (changes.length === query.limit) return { changes, next: last }
              changes.push(entry)
              last = chunk[j]!
            }
          }
        }
      } finally {
        await keys.close()
      }
    },

    async history(who, path) {
      await controlOfRoot(who)
      const versions: ChangeEntry[] = []
      for await (const [key, record] of store.versions.iterator({ gt: `${path}\0`, lt: `${path}\0\uffff`, reverse: true })) versions.push(entryOf(key, record))
      const current = await getMeta(store, path)
      if (!current && versions.length === 0) throw new HttpError(404, 'memento_not_found', `no state of ${path} is kept`)
      return { ...(current ? { current } : {}), versions }
    },

    async restoreFolder(who, folder, at) {
      await controlOfRoot(who)
      // Sorted, a folder comes before what is in it: its own statements are back before its members are written.
      const paths = [...new Set((await keysUnder(folder)).map(pathOfVersionKey))].sort()
      const then = new Map<string, number | undefined>()
      for (const path of paths) then.set(path, await stateAt(who, path, at))
      // A folder's listing moves its `modified` without a version (its members keep theirs); a folder whose members
      // last changed before this build kept no time of its own statements (`stateFrom`), so it may have no state
      // found for `at`. It was there if a member was: its state of then is its first kept, the one the first change
      // after `at` replaced (no change to it came between).
      for (const path of paths) {
        if (!isContainerPath(path) || then.get(path) !== undefined) continue
        if (paths.some(p => p !== path && p.startsWith(path) && then.get(p) !== undefined)) then.set(path, (await firstVersionSpan(store, path))?.from)
      }
      const since = await createdSince(folder, at)
      const out: FolderRestore = { restored: [], unchanged: [], absentThen: [], removed: [], kept: [] }
      for (const path of paths) {
        const from = then.get(path)
        if (from === undefined) {
          if (!since.has(path)) out.absentThen.push(path)
        } else if (isStateAt(await getMeta(store, path), from)) out.unchanged.push(path)
        else {
          await versions.restoreVersion(who, path, from)
          out.restored.push(path)
        }
      }
      // What was created in the folder after `at` and had no state then goes, a versioned delete each: files first,
      // then folders, the deepest first (a folder is empty by then unless something moved into it: it stays).
      const gone = [...since].filter(p => then.get(p) === undefined)
      const order = [...gone.filter(p => !isContainerPath(p)).sort(), ...gone.filter(isContainerPath).sort().reverse()]
      for (const path of order) {
        if (!(await getMeta(store, path))) continue
        try {
          await versions.delete(who, path, NO_PRECONDITIONS)
          out.removed.push(path)
        } catch (err) {
          if (!(err instanceof HttpError) || err.status !== 409) throw err
          out.kept.push(path)
        }
      }
      return out
    },
  }
}
