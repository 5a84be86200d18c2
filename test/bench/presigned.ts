// Proofs and signatures signed ahead of a measured run, never older than the pod accepts.

/**
 * The pod accepts a DPoP proof or an HTTP signature for 60 s after it was made (RFC 9449 §11.1,
 * auth/dpop.ts; RFC 9421 `created`, auth/httpsig/verify-request.ts). Signing ahead keeps ES256 off
 * the pod's cores while it is measured, but a pool used on a long or slow run would hand out proofs
 * past that window and count the pod's right refusals as failures. Proofs older than this are
 * dropped and signed afresh instead: half the window leaves room for a loaded machine.
 */
export const PRESIGNED_MAX_AGE_MS = 30_000

/**
 * At most this many values signed in one second. The pod keeps each key's proofs (DPoP) or nonces (HttpSig)
 * of one second within a share and refuses a key past it with 429: the smaller of `--dpop-proofs-per-key` or
 * `--httpsig-nonces-per-key` (16,384) and what the memory's bytes of `--memory-budget` hold, which the keys
 * sending at once share (lib/replay-limits.ts; with the default budget 23,603 proofs at resources and 15,729 at
 * the token endpoints, where the bench's 32 refreshing sessions leave its UMA exchanges ~5,000). Signing ahead in a tight
 * loop (Ed25519: tens of thousands a second) would pass it; 4,000 a second keeps each key's memory over a second
 * of proofs deep.
 */
export const PRESIGNED_PER_SECOND = 4_000

/**
 * `count` values signed now, handed out oldest first, as a client sends what it signs: the pod's
 * replay memory keeps each DPoP key's newest proofs and refuses ones older than those it forgot
 * (auth/dpop-replay.ts), so a pool sent newest first would be refused past one key's share. Values
 * older than `maxAgeMs` are skipped; once the pool is spent every later value is signed on the fly.
 */
export async function presign<T>(
  sign: () => Promise<T>,
  count: number,
  o: { maxAgeMs?: number; now?: () => number; perSecond?: number } = {},
): Promise<() => Promise<T>> {
  const maxAgeMs = o.maxAgeMs ?? PRESIGNED_MAX_AGE_MS
  const now = o.now ?? Date.now
  const perSecond = o.perSecond ?? PRESIGNED_PER_SECOND
  const pool: { value: T; at: number }[] = []
  for (let i = 0; i < count; i++) {
    // No more in one second of iat/created than a client signing as it sends could make (see PRESIGNED_PER_SECOND)
    const second = Math.floor(now() / 1000)
    if (i >= perSecond && Math.floor(pool[i - perSecond]!.at / 1000) === second) await Bun.sleep(1000 - (now() % 1000))
    pool.push({ value: await sign(), at: now() })
  }
  let i = 0
  return async () => {
    while (i < pool.length && now() - pool[i]!.at > maxAgeMs) i++
    if (i < pool.length) return pool[i++]!.value
    pool.length = 0
    return sign()
  }
}
