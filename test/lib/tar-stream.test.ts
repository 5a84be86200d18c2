// The tar writer of the backup (lib/tar-stream.ts): what it writes, node-tar and GNU tar read back as written.

import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tar from 'tar'
import { tarStream, type TarEntry } from '../../src/lib/tar-stream.ts'

const bytesOf = async (entries: TarEntry[]) => {
  const parts: Uint8Array[] = []
  for await (const chunk of tarStream(entries)) parts.push(chunk)
  return Buffer.concat(parts)
}
const chunks = (...parts: string[]) =>
  (async function* () {
    for (const p of parts) yield new TextEncoder().encode(p)
  })()

describe('tarStream', () => {
  const long = `${'d'.repeat(90)}/${'f'.repeat(90)}.bin`
  const entries: TarEntry[] = [
    { path: 'top', type: 'directory', mode: 0o700, mtimeMs: 1_700_000_000_000 },
    { path: 'top/a.txt', type: 'file', mode: 0o600, mtimeMs: 1_700_000_000_000, size: 11, body: () => chunks('hello ', 'world') },
    { path: `top/${long}`, type: 'file', mode: 0o644, mtimeMs: 1_700_000_000_000, size: 512, body: () => chunks('x'.repeat(512)) },
    { path: 'top/empty', type: 'file', mode: 0o600, mtimeMs: 1_700_000_000_000, size: 0, body: () => chunks() },
  ]

  test('node-tar and GNU tar unpack the entries: paths (one longer than 100 bytes), bytes, modes, times', async () => {
    const work = mkdtempSync(join(tmpdir(), 'solopod-tar-'))
    try {
      const file = join(work, 'a.tar')
      writeFileSync(file, await bytesOf(entries))
      const out = join(work, 'node')
      await Bun.$`mkdir -p ${out}`
      await tar.x({ file, cwd: out, strict: true })
      expect(readFileSync(join(out, 'top/a.txt'), 'utf8')).toBe('hello world')
      expect(readFileSync(join(out, 'top', long), 'utf8')).toBe('x'.repeat(512))
      expect(readFileSync(join(out, 'top/empty'), 'utf8')).toBe('')
      expect(statSync(join(out, 'top/a.txt')).mode & 0o777).toBe(0o600)
      expect(statSync(join(out, 'top/a.txt')).mtimeMs).toBe(1_700_000_000_000)
      const listed = (await Bun.$`tar -tvf ${file}`.text()).trim().split('\n')
      expect(listed.map(l => l.split(/\s+/).slice(-1)[0])).toEqual(['top/', 'top/a.txt', `top/${long}`, 'top/empty'])
      expect(listed[1]).toStartWith('-rw------- 0/0              11 ')
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })

  test('a body shorter or longer than its size fails the archive', async () => {
    const entry = (size: number): TarEntry => ({ path: 'f', type: 'file', mode: 0o600, mtimeMs: 0, size, body: () => chunks('abc') })
    await expect(bytesOf([entry(4)])).rejects.toThrow('f: 3 bytes, not the 4 its tar header says')
    await expect(bytesOf([entry(2)])).rejects.toThrow('f: more bytes than the 2 its tar header says')
  })
})
