// What a zip holds: names as written (a folder's ends with "/") and each file's bytes, in the archive's order.
// Read by the system's `unzip` (Info-ZIP, which must also find the archive sound: `unzip -t`) where it is
// installed, a reader other than the writer; else by a small reader here of what client-zip writes (stored
// entries, the central directory's sizes and CRC-32s, ZIP64 not needed at test sizes), so no tier needs the tool.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

async function run(...cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}: ${err}${out}`)
  return out
}

async function infoZip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const dir = await mkdtemp(join(tmpdir(), 'solopod-unzip-'))
  try {
    const file = join(dir, 'archive.zip')
    await writeFile(file, bytes)
    await run('unzip', '-tq', file)
    const names = (await run('unzip', '-Z1', file)).split('\n').filter(n => n !== '')
    await run('unzip', '-q', file, '-d', join(dir, 'out'))
    const out = new Map<string, Uint8Array>()
    for (const name of names) out.set(name, name.endsWith('/') ? new Uint8Array(0) : new Uint8Array(await readFile(join(dir, 'out', name))))
    return out
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The central directory's entries (APPNOTE 4.3.12, 4.3.16), each file's stored bytes checked against its CRC-32. */
function storedEntries(bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = bytes.byteLength - 22
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--
  if (end < 0) throw new Error('no end of central directory: not a whole zip')
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const out = new Map<string, Uint8Array>()
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('a central directory entry is damaged')
    const method = view.getUint16(at + 10, true)
    const crc = view.getUint32(at + 16, true)
    const size = view.getUint32(at + 20, true)
    const [nameLength, extraLength, commentLength] = [view.getUint16(at + 28, true), view.getUint16(at + 30, true), view.getUint16(at + 32, true)]
    const local = view.getUint32(at + 42, true)
    const name = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at + 46, at + 46 + nameLength))
    if (method !== 0) throw new Error(`${name}: compressed (method ${method}); this reader takes stored entries only`)
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
    const data = bytes.slice(start, start + size)
    if (Bun.hash.crc32(data) !== crc) throw new Error(`${name}: its CRC-32 does not match its bytes`)
    out.set(name, data)
    at += 46 + nameLength + extraLength + commentLength
  }
  return out
}

/** Every entry of the zip `bytes`, in the archive's order: a folder's bytes are empty. */
export const unzipEntries = (bytes: Uint8Array): Promise<Map<string, Uint8Array>> =>
  Bun.which('unzip') ? infoZip(bytes) : Promise.resolve(storedEntries(bytes))
