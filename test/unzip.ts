// What a zip holds, as the system's `unzip` (Info-ZIP) reads it: a check by a reader other than the writer.
// Names as written (a folder's ends with "/"), each file's bytes; `unzip -t` must find the archive sound.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

async function run(...cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}: ${err}${out}`)
  return out
}

/** Every entry of the zip `bytes`, in the archive's order: a folder's bytes are empty. */
export async function unzipEntries(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
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
