// What a key over its replay-memory share sees, for DPoP proofs and HttpSig nonces alike: the other key
// served in full, this key exactly its share (and the one that forgot the oldest) and 429s for the rest.

import { expect } from 'bun:test'

export async function expectRefusedAlone(overShare: Response[], other: Response[], share: number): Promise<void> {
  expect(other.map(r => r.status)).toEqual(other.map(() => 200))
  const statuses = overShare.map(r => r.status)
  expect(statuses.filter(s => s === 200).length).toBe(share + 1)
  expect(statuses.filter(s => s === 429).length).toBe(overShare.length - share - 1)
  const refused = overShare.find(r => r.status === 429)!
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(((await refused.json()) as { error: string }).error).toBe('too_many_requests')
}
