#!/usr/bin/env bun
// CLI entry: flags/env → Config → the command (cli/), and the one way a failure ends the process.

// First: its mark is the time Bun took to start and parse the graph of modules (lib/start-timeline.ts)
import { markStart } from './lib/start-timeline.ts'
import { buildConfig, usage, type Command, type Config } from './config.ts'
import { setLogLevel, describeCause, log } from './log.ts'
import { describeStartFailure } from './server/start-failure.ts'
import { UserError } from './lib/user-error.ts'
import { VERSION } from './lib/version.ts'

type CommandRun = (cfg: Config) => Promise<void>

/** Each command's module, loaded when it is the one asked for: a start of the server does not read the other commands'. */
const COMMANDS: Record<Command, () => Promise<CommandRun>> = {
  serve: async () => (await import('./cli/serve.ts')).serveCommand,
  export: async () => (await import('./cli/export.ts')).exportCommand,
  import: async () => (await import('./cli/import.ts')).importCommand,
  'setup-link': async () => (await import('./cli/setup-link.ts')).setupLinkCommand,
  passwd: async () => (await import('./cli/passwd.ts')).passwdCommand,
  keys: async () => (await import('./cli/keys.ts')).keysCommand,
  clients: async () => (await import('./cli/clients.ts')).clientsCommand,
  links: async () => (await import('./cli/links.ts')).linksCommand,
  blobs: async () => (await import('./cli/blobs.ts')).blobsCommand,
}

async function run(argv: string[]) {
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
  const command = await COMMANDS[cfg.command]()
  markStart('imported')
  await command(cfg)
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
