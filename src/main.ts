#!/usr/bin/env bun
// CLI entry: flags/env → Config → the command (cli/), and the one way a failure ends the process.

// First: its mark is the time Bun took to start and parse the graph of modules (lib/start-timeline.ts)
import { markStart } from './lib/start-timeline.ts'
import { buildConfig, usage, type Command, type Config } from './config.ts'
import { setLogLevel, describeCause, log } from './log.ts'
import { describeStartFailure } from './server/start-failure.ts'
import { UserError } from './lib/user-error.ts'
import { VERSION } from './lib/version.ts'
import { serveCommand } from './cli/serve.ts'
import { exportCommand } from './cli/export.ts'
import { importCommand } from './cli/import.ts'
import { setupLinkCommand } from './cli/setup-link.ts'
import { passwdCommand } from './cli/passwd.ts'
import { keysCommand } from './cli/keys.ts'
import { clientsCommand } from './cli/clients.ts'
import { linksCommand } from './cli/links.ts'
import { blobsCommand } from './cli/blobs.ts'

const COMMANDS: Record<Command, (cfg: Config) => Promise<void>> = {
  serve: serveCommand,
  export: exportCommand,
  import: importCommand,
  'setup-link': setupLinkCommand,
  passwd: passwdCommand,
  keys: keysCommand,
  clients: clientsCommand,
  links: linksCommand,
  blobs: blobsCommand,
}

async function run(argv: string[]) {
  markStart('imported')
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage())
    return
  }
  if (argv.includes('--version')) {
    console.log(`solopod ${VERSION}`)
    return
  }
  const cfg = buildConfig(argv, process.env)
  setLogLevel(cfg.logLevel)
  await COMMANDS[cfg.command](cfg)
}

run(process.argv.slice(2)).catch((err: unknown) => {
  // The operator's to fix (a flag, the data directory, an export target …): the message, no stack.
  if (err instanceof UserError) {
    console.error(`solopod: ${err.message}`)
    process.exit(2)
  }
  // LevelDB allows one process per database: say so instead of printing the lock error.
  if (/lock/i.test(describeCause(err))) {
    console.error('solopod: the data directory is in use by another solopod process (stop it first, or use another --data)')
    process.exit(2)
  }
  // The machine's to fix (permissions, a full disk): a sentence, exit 2; the errno and stack only in the log at debug.
  const sentence = describeStartFailure(err)
  if (sentence !== undefined) {
    log.debug('cli.failed', { cause: describeCause(err), stack: err instanceof Error ? err.stack : undefined })
    console.error(`solopod: ${sentence}`)
    process.exit(2)
  }
  console.error(`solopod: failed: ${describeCause(err)}`)
  process.exit(1)
})
