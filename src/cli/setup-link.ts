// `solopod setup-link`: a new one-time link to set the owner's password, printed to this terminal only.

import type { Config } from '../config.ts'
import { newSetupLink } from '../pod.ts'
import { requestSetupLink } from '../server/control-socket.ts'
import { withStoppedPod } from './stopped-pod.ts'

/** Asks the running server through its control socket; with no server running, writes the token itself. */
export async function setupLinkCommand(cfg: Config): Promise<void> {
  const link =
    (await requestSetupLink(cfg.dataDir)) ?? (await withStoppedPod(cfg.dataDir, 'setup-link', (store, baseUrl) => newSetupLink(store, baseUrl, Date.now())))
  console.log(`Open this one-time link to set the owner's password (valid 7 days; using it replaces the current password, if any):\n${link}`)
}
