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
 * `count` values signed now, handed out oldest first, as a client sends what it signs: the pod's
 * replay memory keeps each DPoP key's newest proofs and refuses ones older than those it forgot
 * (auth/dpop-replay.ts), so a pool sent newest first would be refused past one key's share. Values
 * older than `maxAgeMs` are skipped; once the pool is spent every later value is signed on the fly.
 */
export async function presign<T>(sign: () => Promise<T>, count: number, o: { maxAgeMs?: number; now?: () => number } = {}): Promise<() => Promise<T>> {
  const maxAgeMs = o.maxAgeMs ?? PRESIGNED_MAX_AGE_MS
  const now = o.now ?? Date.now
  const pool: { value: T; at: number }[] = []
  for (let i = 0; i < count; i++) pool.push({ value: await sign(), at: now() })
  let i = 0
  return async () => {
    while (i < pool.length && now() - pool[i]!.at > maxAgeMs) i++
    if (i < pool.length) return pool[i++]!.value
    pool.length = 0
    return sign()
  }
}
