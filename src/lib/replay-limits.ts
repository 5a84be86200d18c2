// What a replay memory (lib/partitioned-replay-memory.ts) may hold, from the bytes `--memory-budget` gives it
// (lib/memory-budget.ts). Its values are state, not a cache: each stays until it could no longer be accepted, and a
// stranger with a key and a credential of their own can fill a memory to its bounds. So the bounds are bytes.

import type { PartitionLimits } from './partitioned-replay-memory.ts'

/**
 * Live JS heap per remembered value, measured with `bun:jsc` heapStats after a full collection: each key's values are
 * an OrderedNumberMap (lib/ordered-number-map.ts), whose arrays double as they grow and halve when fewer than a third
 * of their slots are live: a value costs ~24–48 bytes just before a doubling, up to 61 just past one, and up to 96
 * just before a halving (a Map of numbers cost 80–160). The worst is planned for: a stranger chooses how many values
 * each key holds, and how many of them are shifted out. test/lib/replay-heap.slow.test.ts measures both.
 */
export const ENTRY_BYTES = 100
/** Per client key held: its partition (the key's text, its record, its map with its first value), measured ~570 bytes with 43-character thumbprints. */
export const PARTITION_BYTES = 640
/** Per dropped key's horizon (lib/key-horizons.ts: two Map entries), measured ~245 bytes. */
export const HORIZON_BYTES = 256
/** Dropped keys' horizons kept per key held: a stranger churning keys is slowed (its own issuer only) past these. */
const HORIZONS_PER_KEY = 4
/** What a memory keeps at least, however small its share: a few clients at once, each a burst of requests. */
const MIN_KEYS = 16
const MIN_VALUES = 1024

/**
 * The limits of a memory given `bytes`: a quarter for the client keys it holds and their dropped horizons, the rest
 * for the values. `perPartition` is one key's share (`--dpop-proofs-per-key`, `--httpsig-nonces-per-key`); when it is
 * above the total, the total bound takes from that key itself, as from any fullest key.
 */
export function replayLimits(bytes: number, perPartition: number): Required<Omit<PartitionLimits, 'sweepEveryMs'>> {
  const perKey = PARTITION_BYTES + HORIZONS_PER_KEY * HORIZON_BYTES
  const partitions = Math.max(MIN_KEYS, Math.floor(bytes / 4 / perKey))
  const total = Math.max(MIN_VALUES, Math.floor((bytes - partitions * perKey) / ENTRY_BYTES))
  return { perPartition, total, partitions, dropped: HORIZONS_PER_KEY * partitions }
}

/** The most bytes a memory with these limits holds (what replayLimits planned for `bytes`). */
export const replayBytes = (l: Pick<PartitionLimits, 'total' | 'partitions'> & { readonly dropped?: number }): number =>
  l.total * ENTRY_BYTES + l.partitions * PARTITION_BYTES + (l.dropped ?? HORIZONS_PER_KEY * l.partitions) * HORIZON_BYTES

/** Spent tickets kept at most in `bytes` (one partition: no keys to hold). */
export const spentTicketLimit = (bytes: number): number => Math.max(MIN_VALUES, Math.floor(bytes / ENTRY_BYTES))
