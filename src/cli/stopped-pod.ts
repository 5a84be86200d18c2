// The database of a pod no server runs on, for commands that ask the running server first (setup-link, clients).

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../config.ts'
import { openDataDir } from '../pod.ts'
import { getRecordedBaseUrl } from '../store/base-url.ts'
import type { Store } from '../store/open-store.ts'
import { controlSocketPath } from '../server/control-socket.ts'
import { describeCause } from '../log.ts'

/** Runs `work` on the stopped pod's store and base URL, then closes the store. `command` names the command to run again. */
export async function withStoppedPod<R>(dataDir: string, command: string, work: (store: Store, baseUrl: string) => Promise<R>): Promise<R> {
  if (!existsSync(join(dataDir, 'db'))) throw new ConfigError(`${dataDir} holds no pod yet; start the server once (see --data)`)
  const store = await openDataDir(dataDir).catch((err: unknown) => {
    // LevelDB's lock: a server holds the database but did not answer on its socket (e.g. an older solopod).
    if (/lock/i.test(describeCause(err))) {
      throw new ConfigError(`a solopod process holds ${dataDir} but did not answer on ${controlSocketPath(dataDir)}; ` + `stop it and run ${command} again`)
    }
    throw err
  })
  try {
    const baseUrl = await getRecordedBaseUrl(store)
    if (baseUrl === undefined) throw new ConfigError(`${dataDir} holds no pod yet; start the server once (see --data)`)
    return await work(store, baseUrl)
  } finally {
    await store.close()
  }
}
