// Test helper: a binary resource's content from bytes in memory, stored as the resource server stores a file.

import type { Store } from '../../src/store/open-store.ts'
import type { NewContent } from '../../src/store/resources.ts'

export async function binaryContent(store: Store, contentType: string, bytes: Uint8Array | string): Promise<NewContent> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes
  const blob = await store.blobs.put([data], { reserveBytes: 0 })
  return { kind: 'binary', contentType, blob, size: blob.size }
}

/** The bytes of a binary resource as stored, or undefined when there is none. */
export async function storedBytes(store: Store, path: string): Promise<Uint8Array | undefined> {
  const meta = await store.meta.get(path)
  if (meta?.blob === undefined) return undefined
  return new Uint8Array(await store.blobs.read(meta.blob).arrayBuffer())
}
