// What keeps a dropped client key's values refused: its own horizon, held per key and grouped by issuer, never a pod-wide floor.

interface Group {
  readonly name: string
  /** Keys of this group in use or dropped with a live horizon: what ranks groups when room runs out. */
  held: number
  /** hashed partition key → horizon (epoch ms) of its dropped partition, oldest drop first */
  readonly dropped: Map<number, number>
  /** Horizons folded away when this group held the most: refuse this group's NEW keys' values at or below it. */
  floor: number
}

/** A new key refused because its own group holds the most dropped keys and there is no room: 429 until `retryAtMs`. */
export interface KeysFull {
  readonly keysFull: true
  readonly retryAtMs: number
}

/**
 * A dropped partition's horizon (its newest `until`) matters only while a value at or below it could
 * still be accepted, i.e. until the horizon itself passes: then the acceptance window (DPoP iat, HttpSig
 * created) refuses those values anyway. So a dropped key leaves one number, kept until then, and only
 * that key is refused by it. It is never clamped to the drop time: a key that future-dated its values
 * (iat up to the skew ahead) had them accepted, and a lower horizon would let them be accepted again.
 * Future-dating only lengthens the attacker's own horizon, by at most the skew.
 *
 * Bounded at `max` dropped keys (two map entries each, ~240 bytes measured). When every one is live and a key
 * must be dropped, room is taken from the group (issuer) holding the most dropped keys: its oldest
 * dropped horizon folds into that group's floor, which refuses only that group's *new* keys' older
 * values. If the requester's own group is that group, its new key is refused instead (429): a stranger
 * churning keys of its own issuer slows only that issuer; another issuer's new key is never refused,
 * unless the pod already holds `max` groups (distinct issuers within one window, each costing a fetch).
 */
export class KeyHorizons {
  readonly #groups = new Map<string, Group>()
  /** hashed partition key → the group holding its dropped horizon */
  readonly #groupOf = new Map<number, Group>()
  /** The group holding the most dropped keys, re-found at every sweep. */
  #fullest: Group | undefined
  /** A full memory sweeps at most once a second, not once a request. */
  #lastSweep = Number.NEGATIVE_INFINITY

  constructor(readonly max: number) {}

  get size() {
    return this.#groupOf.size
  }
  get groupCount() {
    return this.#groups.size
  }

  /** The horizon a partition of this key starts with: its own dropped horizon, else (a new key) its group's floor. */
  startOf(group: string, hk: number, now: number): number {
    const was = this.#groupOf.get(hk)
    const horizon = was ? was.dropped.get(hk)! : (this.#groups.get(group)?.floor ?? 0)
    return horizon > now ? horizon : 0
  }

  /**
   * The key's partition starts (or restarts), `dropNeeded` when another one must be dropped for it.
   * A returning key gives back its dropped slot; a new key may be refused (KeysFull) when no room is left.
   */
  enter(group: string, hk: number, now: number, dropNeeded: boolean): KeysFull | undefined {
    const was = this.#groupOf.get(hk)
    if (was) {
      was.dropped.delete(hk)
      this.#groupOf.delete(hk)
      this.#leave(was, now)
    } else {
      if (dropNeeded && this.#groupOf.size >= this.max) {
        if (now - this.#lastSweep >= 1000) this.sweep(now)
        const refused = this.#makeRoom(group)
        if (refused) return refused
      }
      if (!this.#groups.has(group) && this.#groups.size >= this.max) return { keysFull: true, retryAtMs: now + 1000 }
    }
    this.#held(group).held++
    return undefined
  }

  /** A live partition of `group` is dropped with this horizon: kept for its key while it is in the future. */
  drop(group: string, hk: number, horizon: number, now: number): void {
    const g = this.#groups.get(group)
    if (!g) return
    if (horizon <= now) {
      this.#leave(g, now)
      return
    }
    g.dropped.set(hk, horizon)
    this.#groupOf.set(hk, g)
    if (!this.#fullest || g.dropped.size > this.#fullest.dropped.size) this.#fullest = g
  }

  /** A live partition of `group` went with nothing left to refuse (swept or given back). */
  gone(group: string, now: number): void {
    const g = this.#groups.get(group)
    if (g) this.#leave(g, now)
  }

  sweep(now: number): void {
    let fullest: Group | undefined
    for (const [name, g] of this.#groups) {
      for (const [hk, horizon] of g.dropped)
        if (horizon <= now) {
          g.dropped.delete(hk)
          this.#groupOf.delete(hk)
          g.held--
        }
      if (g.held === 0 && g.floor <= now) this.#groups.delete(name)
      else if (!fullest || g.dropped.size > fullest.dropped.size) fullest = g
    }
    this.#fullest = fullest
    this.#lastSweep = now
  }

  #makeRoom(group: string): KeysFull | undefined {
    if (this.#groupOf.size < this.max) return undefined // the sweep made room
    if (!this.#fullest || this.#fullest.dropped.size === 0) this.#fullest = this.#findFullest()
    const fullest = this.#fullest!
    const own = this.#groups.get(group)
    const [hk, horizon] = fullest.dropped.entries().next().value!
    if (own === fullest || (own?.dropped.size ?? 0) >= fullest.dropped.size) return { keysFull: true, retryAtMs: horizon }
    fullest.dropped.delete(hk)
    this.#groupOf.delete(hk)
    fullest.held--
    if (horizon > fullest.floor) fullest.floor = horizon
    return undefined
  }

  #findFullest(): Group | undefined {
    let best: Group | undefined
    for (const g of this.#groups.values()) if (!best || g.dropped.size > best.dropped.size) best = g
    return best
  }

  #held(group: string): Group {
    let g = this.#groups.get(group)
    if (!g) this.#groups.set(group, (g = { name: group, held: 0, dropped: new Map(), floor: 0 }))
    return g
  }

  #leave(g: Group, now: number) {
    g.held--
    if (g.held <= 0 && g.floor <= now) {
      this.#groups.delete(g.name)
      if (this.#fullest === g) this.#fullest = undefined
    }
  }
}
