// `--memory-budget`: the resident memory the pod is meant to stay under, and the bytes each cache may hold of it.
//
// Measured on Linux x64 (docs/performance.md, "Memory budget"): a pod right after start is 68–71 MB resident before any
// cache holds anything: Bun's binary (~45 MB of its pages) and the runtime's own heap (~25 MB, mimalloc). That floor is
// no cache's to give back, so the shares below are sixteenths of the room above RUNTIME_FLOOR; 4/16 of the room stay
// free for requests in flight (bodies, parsed RDF), the allocators' slack between collections and the floor's own drift.

/** Fits a 512 MB VPS beside a database, a web server and the system (a quarter of it): its caches' room is 64 MiB. */
export const DEFAULT_MEMORY_BUDGET = 128 * 1024 * 1024
/** What Bun and the pod take resident before any cache (measured 65–68 MiB after start), rounded down. */
export const RUNTIME_FLOOR = 64 * 1024 * 1024
/** The floor plus 32 MiB of room: the smallest caches that still serve (half the default's) and requests in flight. */
export const MIN_MEMORY_BUDGET = 96 * 1024 * 1024

/** Bytes each bounded cache may hold (memoryShares). */
export interface MemoryShares {
  /** LevelDB's block cache (classic-level `cacheSize`): uncompressed table blocks read lately. */
  readonly leveldbBlockCache: number
  /**
   * LevelDB's write buffer (`writeBufferSize`): the memtable fills to this before it goes to a table; one being written
   * out and a new one may be held at once, so it counts twice.
   */
  readonly leveldbWriteBuffer: number
  /** Serialized RDF of the resources read lately (resources/representation-cache.ts). */
  readonly representations: number
  /** Serialized RDF of the versions read lately (mementos), apart from the resources'. */
  readonly mementos: number
  /** Resource metadata by path (store/open-store.ts), estimated per entry. */
  readonly metadata: number
  /** The replay memories (lib/replay-limits.ts): single-use values kept until they expire, state a stranger can fill. */
  readonly replay: ReplayShares
}

/** Bytes of each replay memory. */
export interface ReplayShares {
  /** DPoP proofs at resources (auth/dpop-replay.ts): anyone with a WebID, its issuer and a key reaches it. */
  readonly dpopProofs: number
  /** HttpSig nonces (auth/httpsig/nonce-cache.ts): anyone with a key (a did:key costs nothing). */
  readonly httpsigNonces: number
  /** DPoP proofs at the token endpoints: the provider's (apps the owner approved) and the UMA server's (anyone with an ID token). */
  readonly tokenEndpointProofs: number
  /** Spent UMA tickets (uma/permission-tickets.ts): a verified ID token each. */
  readonly spentTickets: number
}

/**
 * The caches' shares of a budget, in sixteenths of its room above RUNTIME_FLOOR: 2 block cache, 1 write buffer (held
 * twice), 3 representations, 1 mementos, 2 metadata, 2 replay memories = 12/16. The default budget's room is 64 MiB, so
 * LevelDB keeps the defaults it had before the budget (8 MiB cache, 4 MiB buffer); the representation caches had 1,000
 * entries of up to 64 KiB each, 64 MiB apiece, and the metadata cache 20,000 entries of any size. The replay memories
 * were bounded by counts alone (250,000 DPoP proofs, 500,000 HttpSig nonces, 200,000 spent tickets, with 8,192 keys and
 * 32,768 dropped horizons each): over 100 MB at their measured costs, which strangers with keys of their own could fill.
 * Now 8 MiB with the default budget: 3/8 of it for the DPoP proofs at resources, 1/4 each for the HttpSig nonces and
 * the token endpoints' DPoP proofs (refreshes and UMA exchanges: many keys that each hold a few proofs for a minute
 * beside one that sends thousands), 1/8 for the spent tickets.
 */
export function memoryShares(budget = DEFAULT_MEMORY_BUDGET): MemoryShares {
  const part = Math.floor(Math.max(0, budget - RUNTIME_FLOOR) / 16)
  const replay = 2 * part
  return {
    leveldbBlockCache: 2 * part,
    leveldbWriteBuffer: part,
    representations: 3 * part,
    mementos: part,
    metadata: 2 * part,
    replay: {
      dpopProofs: Math.floor((replay * 3) / 8),
      httpsigNonces: Math.floor(replay / 4),
      tokenEndpointProofs: Math.floor(replay / 4),
      spentTickets: Math.floor(replay / 8),
    },
  }
}

const UNITS: Record<string, number> = { '': 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }

/**
 * `134217728`, `128MB`, `128MiB`, `1GB` (case-insensitive) → bytes; undefined for anything else. MB is read as MiB: the
 * budget is compared with RSS, which every tool prints in KiB multiples, and nobody means 10^6 there.
 */
export function parseMemorySize(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b)?$/i.exec(value.trim())
  if (!m) return undefined
  const unit = (m[2] ?? '').toLowerCase().replace(/^([kmg])b$/, '$1ib')
  const bytes = Math.floor(Number(m[1]) * UNITS[unit]!)
  return Number.isSafeInteger(bytes) ? bytes : undefined
}
