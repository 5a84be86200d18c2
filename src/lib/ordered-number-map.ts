// A map from numbers to numbers that keeps insertion order, in typed arrays: one client key's values in a replay
// memory (lib/partitioned-replay-memory.ts). A Map of numbers costs 80–160 bytes of heap a value as its table
// doubles; here 24–61 as it grows (two 8-byte slots and a 4-byte index cell each, up to twice over just past a
// doubling, and the arrays' headers) and at most 96 as it shrinks (three slots a value before it is halved), so the
// memory's bytes of --memory-budget hold about twice as many values.

/** Index cells: never used, or used by a value since deleted (a probe goes on past it). */
const EMPTY = -1
const GONE = -2
/** Up to this many slots a lookup scans them: no index is kept (most keys hold a few values). */
const SCAN_SLOTS = 8

/**
 * Keys are integers in [0, 2^53) (replay-memory.ts `replayKey`: 48 bits of a SHA-256, so their low 32 bits are
 * already spread); values are any numbers. The slots form a ring in insertion order, the oldest at `head`; a deleted
 * value leaves a hole (NaN key) until the ring is rebuilt: when it is full (grown when more than half of it is live,
 * else compacted), when fewer than a third of its slots are live (halved), and when `removeUpTo` has removed
 * anything (to the power of two at or above 1.5 times what is left). So past SCAN_SLOTS a ring never has more than
 * three slots a value, whatever a client does.
 */
export class OrderedNumberMap {
  #keys: Float64Array
  #values: Float64Array
  #mask: number
  #head = 0
  /** Slots from head in use, live or holes. */
  #used = 0
  #size = 0
  /** Open addressing, linear probing: the slot of a key, EMPTY or GONE; none while the ring has SCAN_SLOTS or fewer. */
  #index: Int32Array | undefined
  #gone = 0

  constructor() {
    this.#keys = new Float64Array(2)
    this.#values = new Float64Array(2)
    this.#mask = 1
  }

  get size(): number {
    return this.#size
  }

  get(key: number): number | undefined {
    const slot = this.#slotOf(key)
    return slot < 0 ? undefined : this.#values[slot]
  }

  /** A new key goes last; a key already held keeps its place and takes the new value (as Map.set). */
  set(key: number, value: number): void {
    const slot = this.#slotOf(key)
    if (slot >= 0) {
      this.#values[slot] = value
      return
    }
    if (this.#used === this.#keys.length) this.#rebuild(this.#size * 2 > this.#keys.length ? this.#keys.length * 2 : this.#keys.length)
    const free = (this.#head + this.#used) & this.#mask
    this.#keys[free] = key
    this.#values[free] = value
    this.#used++
    this.#size++
    if (this.#index) {
      if ((this.#size + this.#gone) * 2 > this.#index.length) this.#rebuildIndex()
      else this.#place(key, free)
    }
  }

  delete(key: number): boolean {
    const slot = this.#slotOf(key)
    if (slot < 0) return false
    this.#remove(slot)
    return true
  }

  /** Removes the oldest value: its value, or undefined when there is none. */
  shift(): number | undefined {
    if (this.#size === 0) return undefined
    const slot = this.#head // never a hole: holes at the head are passed at once
    const value = this.#values[slot]!
    this.#remove(slot)
    return value
  }

  /** The oldest key and value, or undefined. */
  first(): [key: number, value: number] | undefined {
    return this.#size === 0 ? undefined : [this.#keys[this.#head]!, this.#values[this.#head]!]
  }

  /** Removes every value at most `limit` (a memory's expired ones), keeping the others' order; how many went. */
  removeUpTo(limit: number): number {
    let removed = 0
    for (let i = 0; i < this.#used; i++) {
      const slot = (this.#head + i) & this.#mask
      if (!Number.isNaN(this.#keys[slot]!) && this.#values[slot]! <= limit) {
        this.#keys[slot] = Number.NaN
        removed++
      }
    }
    if (removed > 0) {
      this.#size -= removed
      this.#rebuild(Math.max(2, 2 ** Math.ceil(Math.log2(Math.max(1, this.#size * 1.5)))))
    }
    return removed
  }

  *[Symbol.iterator](): IterableIterator<[key: number, value: number]> {
    for (let i = 0; i < this.#used; i++) {
      const slot = (this.#head + i) & this.#mask
      if (!Number.isNaN(this.#keys[slot]!)) yield [this.#keys[slot]!, this.#values[slot]!]
    }
  }

  #slotOf(key: number): number {
    const index = this.#index
    if (!index) {
      for (let i = 0; i < this.#used; i++) {
        const slot = (this.#head + i) & this.#mask
        if (this.#keys[slot] === key) return slot
      }
      return -1
    }
    const mask = index.length - 1
    for (let cell = (key >>> 0) & mask; ; cell = (cell + 1) & mask) {
      const slot = index[cell]!
      if (slot === EMPTY) return -1
      if (slot >= 0 && this.#keys[slot] === key) return slot
    }
  }

  #remove(slot: number): void {
    if (this.#index) {
      const mask = this.#index.length - 1
      let cell = (this.#keys[slot]! >>> 0) & mask
      while (this.#index[cell] !== slot) cell = (cell + 1) & mask
      this.#index[cell] = GONE
      this.#gone++
    }
    this.#keys[slot] = Number.NaN
    this.#size--
    // Never more than three slots a value past the scanned sizes: arrays once grown for a burst would otherwise stay
    // as large while the burst's values are shifted out (a key filled, then emptied to a few values, again and again)
    if (this.#keys.length > SCAN_SLOTS && this.#size * 3 < this.#keys.length) {
      this.#rebuild(this.#keys.length / 2)
      return
    }
    if (this.#size === 0) {
      this.#head = 0
      this.#used = 0
      if (this.#index) this.#rebuildIndex()
      return
    }
    while (Number.isNaN(this.#keys[this.#head]!)) {
      this.#head = (this.#head + 1) & this.#mask
      this.#used--
    }
  }

  /** The live values, in order, into a ring of `capacity` slots (a power of two) starting at 0; the index anew. */
  #rebuild(capacity: number): void {
    const keys = new Float64Array(capacity)
    const values = new Float64Array(capacity)
    let n = 0
    for (let i = 0; i < this.#used; i++) {
      const slot = (this.#head + i) & this.#mask
      if (Number.isNaN(this.#keys[slot]!)) continue
      keys[n] = this.#keys[slot]!
      values[n] = this.#values[slot]!
      n++
    }
    this.#keys = keys
    this.#values = values
    this.#mask = capacity - 1
    this.#head = 0
    this.#used = n
    this.#rebuildIndex()
  }

  #rebuildIndex(): void {
    const capacity = this.#keys.length
    this.#gone = 0
    if (capacity <= SCAN_SLOTS) {
      this.#index = undefined
      return
    }
    // Twice the ring's slots: the index is at most half full, live and GONE cells together, until the next rebuild
    this.#index = new Int32Array(capacity * 2).fill(EMPTY)
    for (let i = 0; i < this.#used; i++) {
      const slot = (this.#head + i) & this.#mask
      if (!Number.isNaN(this.#keys[slot]!)) this.#place(this.#keys[slot]!, slot)
    }
  }

  #place(key: number, slot: number): void {
    const index = this.#index!
    const mask = index.length - 1
    let cell = (key >>> 0) & mask
    while (index[cell]! >= 0) cell = (cell + 1) & mask
    if (index[cell] === GONE) this.#gone--
    index[cell] = slot
  }
}
