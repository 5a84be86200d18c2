// Serialises resource writes so a precondition check and the write it guards are one step.

import { makeSerialQueue, type SerialQueue } from '../lib/serial-queue.ts'

/**
 * One owner, one process: a single queue is simpler than per-path locks and keeps
 * cross-resource invariants (a parent container created by two PUTs at once) safe.
 * Throughput is bounded by fsync anyway.
 */
export const makeWriteLock = (): SerialQueue => makeSerialQueue()

export type WithWriteLock = SerialQueue
