// Gives every LevelDB put a non-empty value: classic-level 3.0 never frees its copy of an empty one.

import type { ClassicLevel } from 'classic-level'

/** What an empty value becomes; readers of these keys never look at their values. */
const FILLER_TEXT = '-'
const FILLER_BYTES = new Uint8Array([0x2d])

interface EncodedOp { type: string; key?: unknown; value?: unknown; sublevel?: unknown; valueEncoding?: { commonName?: string } }

/**
 * classic-level 3.0 (binding.cc) copies each key and value of a write into a fresh buffer and frees
 * it with DisposeSliceBuffer, which skips empty slices: the 1-byte buffer of an empty value is never
 * freed. quadstore writes every quad key with an empty value (and the membership index did too), so
 * each PUT of a 1 KB document kept ~0.5–1 KB of native memory for ever (measured: RSS +14 MB per
 * 12,000 PUTs after collection and malloc_trim, JS heap flat; plain batches with a one-byte value
 * did not grow). Those values are never read — quadstore reads keys only, the membership index is
 * read with keys() — so they are written as one byte instead; data written earlier reads the same.
 * Only there: values that are read (an empty binary resource, say) are written as they are.
 * A root prewrite hook sees every write, sublevels' and chained batches' included.
 */
export function avoidEmptyValues(db: ClassicLevel<string, unknown>, o: { unreadSublevels: readonly unknown[] }): void {
  db.hooks.prewrite.add((op: unknown) => {
    const w = op as EncodedOp
    if (w.type !== 'put') return
    // Quad keys are written to the root database (no sublevel) by quadstore; a sublevel's own put()
    // reaches the root as a key with its `!name!` prefix, and is left alone.
    const quadKey = w.sublevel == null && typeof w.key === 'string' && !w.key.startsWith('!')
    if (!quadKey && !(w.sublevel != null && o.unreadSublevels.includes(w.sublevel))) return
    const encoding = w.valueEncoding?.commonName
    if (w.value === '' && encoding === 'utf8') w.value = FILLER_TEXT
    else if (w.value instanceof Uint8Array && w.value.byteLength === 0 && (encoding === 'view' || encoding === 'buffer')) w.value = FILLER_BYTES
  })
}
