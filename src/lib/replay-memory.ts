// The key of a single-use value (a DPoP jti, an HttpSig nonce, a spent UMA ticket) in the replay memories.

/**
 * The key of a value in a replay memory (lib/partitioned-replay-memory.ts): 48 bits of a SHA-256 of its parts, kept as a number. A
 * number is stored in the map entry itself, so an entry costs no string on the heap: after
 * `bun run bench` the string keys of 130,000 live entries held about 14 MB. Two
 * values share a key with odds of 1 in 2^48 per live entry, and the only effect is that the later
 * one is refused as a replay, never that a replay is accepted.
 */
export function replayKey(...parts: readonly string[]): number {
  // Each part then a newline, as one string hashed at once (Bun's one-shot SHA-256: a DPoP request makes one key)
  const digest = Bun.SHA256.hash(`${parts.join('\n')}\n`) as Uint8Array
  return digest[0]! * 2 ** 40 + digest[1]! * 2 ** 32 + digest[2]! * 2 ** 24 + digest[3]! * 2 ** 16 + digest[4]! * 2 ** 8 + digest[5]!
}
