// A pod in a new temporary data directory, opened in-process the way `solopod serve` opens it (src/pod.ts);
// closing it removes the directory. The in-process fixtures (rs, op, admin, policy) are built on it.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../src/config.ts'
import { openPod, type Pod, type PodOptions } from '../src/pod.ts'
import { setLogLevel } from '../src/log.ts'

/** `name` prefixes the directory (`solopod-NAME-…`); `args` are command-line flags after --data and --base-url. */
export async function openTempPod(name: string, baseUrl: string, args: readonly string[] = [], opts: PodOptions = {}): Promise<Pod> {
  setLogLevel('silent')
  const dir = mkdtempSync(join(tmpdir(), `solopod-${name}-`))
  const pod = await openPod(buildConfig(['--data', dir, '--base-url', baseUrl, ...args], {}), opts)
  return {
    ...pod,
    close: async () => {
      await pod.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
