// What each resource write changed, told to whoever listens once the write is on disk (Solid
// Notifications: every channel hears the pod's changes through here), and written into the write's own
// batch for those that must not lose one (webhook deliveries, kept on disk until sent).

import type { WriteOp } from './group-commit.ts'
import { log, describeCause } from '../log.ts'

/** Activity Streams 2.0 types of a change (Solid Notifications Protocol §notification-message). */
export type ChangeType = 'Create' | 'Update' | 'Delete' | 'Add' | 'Remove'

export interface ResourceChange {
  /** Pod path of the resource a subscriber listens to: the container itself for Add and Remove. */
  readonly topic: string
  readonly type: ChangeType
  /** Pod path of what changed: the member added or removed for Add and Remove, else the topic itself. */
  readonly object: string
  /** The topic's new state, its strong ETag as the ETag header shows it (`"…"`); none after Delete. */
  readonly state?: string
  /** When the write happened, epoch milliseconds. */
  readonly published: number
}

export type ChangeListener = (changes: readonly ResourceChange[]) => void
/** Operations to write in the same batch as the change itself: synchronous, and they must not fail. */
export type ChangeJournal = (changes: readonly ResourceChange[]) => readonly WriteOp[]

export interface ChangeFeed {
  /** Hears every write's changes after its batch is synced, in commit order. Returns the unsubscribe. */
  listen(listener: ChangeListener): () => void
  /** Writes records for `changes` inside their own write's batch: an acknowledged write never loses them. */
  journal(journal: ChangeJournal): () => void
  /** The journals' operations for one write (store/commit-changes.ts adds them to its batch). */
  opsFor(changes: readonly ResourceChange[]): WriteOp[]
  /** Tells the listeners (store/commit-changes.ts, once the batch is on disk and the store shows it). */
  publish(changes: readonly ResourceChange[]): void
}

export function makeChangeFeed(): ChangeFeed {
  const listeners = new Set<ChangeListener>()
  const journals = new Set<ChangeJournal>()
  return {
    listen(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    journal(journal) {
      journals.add(journal)
      return () => {
        journals.delete(journal)
      }
    },
    opsFor(changes) {
      if (journals.size === 0 || changes.length === 0) return []
      return [...journals].flatMap(j => j(changes))
    },
    publish(changes) {
      if (changes.length === 0) return
      // A listener's failure is its own: the write is done, and the others are still told.
      for (const listener of listeners) {
        try {
          listener(changes)
        } catch (err) {
          log.error('changes.listener_failed', { cause: describeCause(err) })
        }
      }
    },
  }
}
