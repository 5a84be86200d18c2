// `solopod serve`: serves the pod until SIGTERM or SIGINT, with the start banner for the person at the terminal.

import { ownerWebIdOf, type Config } from '../config.ts'
import { servePod } from '../server/serve-pod.ts'
import { formatBanner } from './banner.ts'
import { VERSION } from '../lib/version.ts'
import { checkTlsFiles } from '../server/tls-files.ts'

export async function serveCommand(cfg: Config): Promise<void> {
  if (cfg.tlsCert) checkTlsFiles(cfg.tlsCert, cfg.tlsKey!)
  const serving = await servePod(cfg)
  const { baseUrl, host, dataDir, logLevel } = serving.pod.cfg
  // For the person at the terminal (and tests that let the system pick the port), whatever the log
  // level: stderr, apart from the JSON log lines on stdout.
  console.error(
    formatBanner({
      version: VERSION,
      baseUrl,
      host,
      port: serving.port,
      webid: ownerWebIdOf(baseUrl),
      dataDir,
      logLevel,
      ...(serving.setupLink ? { setupLink: serving.setupLink } : {}),
    }),
  )
  const stop = (signal: string) => void serving.stop(signal).then(() => process.exit(0))
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}
