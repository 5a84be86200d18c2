// `solopod setup-link`: a new one-time link to set the owner's password, printed to this terminal only.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, type Config } from '../config.ts'
import { newSetupLink, openDataDir } from '../pod.ts'
import { getRecordedBaseUrl } from '../store/base-url.ts'
import { controlSocketPath, requestSetupLink } from '../server/control-socket.ts'
import { describeCause } from '../log.ts'

/** Asks the running server through its control socket; with no server running, writes the token itself. */
export async function setupLinkCommand(cfg: Config): Promise<void> {
  let link = await requestSetupLink(cfg.dataDir)
  if (link === undefined) {
    if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod yet; start the server once (see --data)`)
    const store = await openDataDir(cfg.dataDir).catch((err: unknown) => {
      // LevelDB's lock: a server holds the database but did not answer on its socket (e.g. an older solopod).
      if (/lock/i.test(describeCause(err))) {
        throw new ConfigError(`a solopod process holds ${cfg.dataDir} but did not answer on ${controlSocketPath(cfg.dataDir)}; ` +
          'stop it and run setup-link again')
      }
      throw err
    })
    try {
      const baseUrl = await getRecordedBaseUrl(store)
      if (baseUrl === undefined) throw new ConfigError(`${cfg.dataDir} holds no pod yet; start the server once (see --data)`)
      link = await newSetupLink(store, baseUrl, Date.now())
    } finally { await store.close() }
  }
  console.log(`Open this one-time link to set the owner's password (valid 7 days; using it replaces the current password, if any):\n${link}`)
}
