// A tar archive (POSIX ustar) written as it is read, entry by entry, each file's bytes pulled from its own source
// only when the archive gets there: a file in a bucket goes into a backup without a copy on the local disk first.
// Headers are "portable" (no owner names or ids of this machine), as node-tar's `portable` writes them.

export interface TarEntry {
  /** Relative, `/`-separated; a directory's without the trailing `/`. */
  readonly path: string
  readonly type: 'file' | 'directory'
  readonly mode: number
  readonly mtimeMs: number
  /** Files: the bytes `body` yields, exactly (the header says it before they are read). */
  readonly size?: number
  readonly body?: () => Promise<AsyncIterable<Uint8Array>> | AsyncIterable<Uint8Array>
}

const BLOCK = 512
/** The largest size the 11 octal digits of ustar's size field hold (8 GiB - 1); above, base-256 (GNU, read by node-tar). */
const MAX_OCTAL_SIZE = 0o77777777777
const encoder = new TextEncoder()

/** The archive's bytes: each entry's header, its bytes padded to a block, and the two empty blocks that end a tar. */
export async function* tarStream(entries: AsyncIterable<TarEntry> | Iterable<TarEntry>): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    const size = entry.type === 'file' ? (entry.size ?? 0) : 0
    yield header(entry, size)
    if (entry.type !== 'file' || !entry.body) continue
    let sent = 0
    for await (const chunk of await entry.body()) {
      sent += chunk.byteLength
      if (sent > size) throw new Error(`${entry.path}: more bytes than the ${size} its tar header says`)
      yield chunk
    }
    if (sent !== size) throw new Error(`${entry.path}: ${sent} bytes, not the ${size} its tar header says`)
    if (size % BLOCK !== 0) yield new Uint8Array(BLOCK - (size % BLOCK))
  }
  yield new Uint8Array(2 * BLOCK)
}

function header(entry: TarEntry, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK)
  const { name, prefix } = splitPath(entry.type === 'directory' ? `${entry.path}/` : entry.path)
  const put = (at: number, text: string) => block.set(encoder.encode(text), at)
  const octal = (at: number, width: number, n: number) => put(at, `${n.toString(8).padStart(width - 1, '0')}\0`)
  put(0, name)
  octal(100, 8, entry.mode & 0o7777)
  octal(108, 8, 0)
  octal(116, 8, 0)
  if (size <= MAX_OCTAL_SIZE) octal(124, 12, size)
  else {
    block[124] = 0x80
    for (let i = 135, n = size; i > 124; i--, n = Math.floor(n / 256)) block[i] = n % 256
  }
  octal(136, 12, Math.floor(entry.mtimeMs / 1000))
  put(156, entry.type === 'directory' ? '5' : '0')
  put(257, 'ustar\u000000')
  put(345, prefix)
  // The checksum is the sum of the header's bytes with its own field read as eight spaces.
  put(148, '        ')
  let sum = 0
  for (const b of block) sum += b
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `)
  return block
}

/** ustar keeps a path in `name` (100 bytes) and, when longer, the part before a `/` in `prefix` (155). */
function splitPath(path: string): { name: string; prefix: string } {
  const bytes = encoder.encode(path).byteLength
  if (bytes <= 100) return { name: path, prefix: '' }
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const [prefix, name] = [path.slice(0, cut), path.slice(cut + 1)]
    if (encoder.encode(prefix).byteLength <= 155 && encoder.encode(name).byteLength <= 100 && name !== '') return { name, prefix }
  }
  throw new Error(`${path}: too long a path for a tar header`)
}
