#!/usr/bin/env bun
// CLI entry: flags/env → Config → store → serve (or export, import, passwd).

import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { buildConfig, ConfigError, ownerWebIdOf, usage, withBoundPort, type Config } from './config.ts'
import { openStore, StoreFormatError, type Store } from './store/open-store.ts'
import { buildApp, makeRequestHandler } from './app.ts'
import { startMemoryReclaimer } from './lib/memory-reclaimer.ts'
import { makeInFlight } from './lib/in-flight.ts'
import { makeDeps } from './deps.ts'
import { ADMIN_PATHS } from './http/pod-paths.ts'
import { ensureOwner, BaseUrlMismatchError } from './first-start.ts'
import { checkPasswordStrength, createSetupToken, getOwnerAccount, setOwnerPassword } from './auth/owner-account.ts'
import { endOwnerLogins } from './auth/owner-session.ts'
import { makeSessionRevocations } from './auth/app-sessions.ts'
import { recordBackup } from './store/last-backup.ts'
import { sweepExpiredRecordsRegularly } from './store/expired-records.ts'
// Export, import and backup archives are loaded when a command needs them: not on every start of the server.
const loadExport = () => import('./store/export-pod.ts')
const loadImport = () => import('./store/import-pod.ts')
const loadArchive = () => import('./store/export-archive.ts')
import { log, setLogLevel, describeCause } from './log.ts'
import { DataDirError, prepareDataDir } from './data-dir.ts'
import { getRecordedBaseUrl } from './store/base-url.ts'
import { formatBanner } from './cli/banner.ts'
import { ControlSocketError, controlSocketPath, openControlSocket, requestExport, requestSetupLink } from './cli/control-socket.ts'
import { VERSION } from './cli/version.ts'
import { addOwnerKey, KeyCommandError, writePrivateJwk } from './cli/owner-keys.ts'
import { defaultKeyName } from './auth/httpsig/owner-key-documents.ts'

function readPasswordFile(file: string): string {
  const password = readFileSync(file, 'utf8').replace(/\r?\n$/, '')
  const problem = checkPasswordStrength(password)
  if (problem) throw new ConfigError(`--owner-password-file: ${problem}`)
  return password
}

async function readPasswordFromStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text()
  return text.replace(/\r?\n$/, '')
}

/** Every command opens the store through here: the data directory is made private (or refused) before its first file. */
function openDataDir(dataDir: string): Promise<Store> {
  prepareDataDir(dataDir)
  return openStore(dataDir)
}

/** How long a stop waits for handlers still running (a large upload being written, a queued write). */
const STOP_DRAIN_MS = 30_000

const setupLinkOf = (baseUrl: string, token: string) => `${baseUrl}${ADMIN_PATHS.setup}?token=${token}`

/** The password from --owner-password-file, or a one-time setup link while none is set. */
async function setUpOwnerPassword(cfg: Config, store: Store): Promise<string | undefined> {
  const account = await getOwnerAccount(store)
  if (cfg.ownerPasswordFile) {
    if (!account?.passwordHash) await setOwnerPassword(store, readPasswordFile(cfg.ownerPasswordFile))
    return undefined
  }
  if (account?.passwordHash) return undefined
  return setupLinkOf(cfg.baseUrl, await createSetupToken(store, Date.now()))
}

/**
 * `setup-link`: asks the running server through its control socket; with no server running, writes
 * the token itself. The link goes to this terminal only, never to a log.
 */
async function printSetupLink(cfg: Config) {
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
      link = setupLinkOf(baseUrl, await createSetupToken(store, Date.now()))
    } finally { await store.close() }
  }
  console.log(`Open this one-time link to set the owner's password (valid 7 days; using it replaces the current password, if any):\n${link}`)
}

/**
 * Overwrites leave superseded versions on disk until LevelDB merges them; compacting once per start
 * (in LevelDB's background thread, after the server listens, so startup does not wait) keeps the
 * data directory proportional to the live data. The write path compacts again every
 * COMPACT_EVERY_WRITES writes (store/open-store.ts).
 */
function compactInBackground(store: Store) {
  const started = performance.now()
  store.compact().then(
    () => log.info('store.compacted', { ms: Math.round(performance.now() - started) }),
    (err: unknown) => log.warn('store.compaction_failed', { cause: describeCause(err) }))
}

type FetchHandler = ReturnType<typeof makeRequestHandler>

function listen(cfg: Config, fetch: FetchHandler) {
  return Bun.serve({
    port: cfg.port,
    hostname: cfg.host,
    // Above our own limit, so oversized bodies get the pod's 413 (with its reason and CORS headers);
    // the request reader stops at cfg.maxBodyBytes itself.
    maxRequestBodySize: cfg.maxBodyBytes + 1024 * 1024,
    ...(cfg.tlsCert ? { tls: { cert: Bun.file(cfg.tlsCert), key: Bun.file(cfg.tlsKey!) } } : {}),
    fetch,
    // Never Bun's development error page (it shows source paths and code): the handler answers every
    // request itself, and lastResort is there should anything still escape it.
    development: false,
    error: lastResort,
  })
}

function lastResort(err: Error): Response {
  log.error('request.failed', { cause: describeCause(err) })
  return new Response('server_error: the pod could not complete this request; see the server log\n',
    { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } })
}

async function serve(given: Config) {
  // --port 0: the system picks a free port. It is bound before anything else, so a base URL left to
  // its default can name it; until the pod is ready that listener answers 503.
  const early = given.port === 0 ? listen(given, async () => new Response('starting\n', { status: 503 })) : undefined
  const cfg = early ? withBoundPort(given, early.port!) : given
  const store = await openDataDir(cfg.dataDir)
  const now = () => Date.now()
  const created = await ensureOwner(store, cfg.baseUrl, now())
  if (created) log.info('owner.created', { webid: ownerWebIdOf(cfg.baseUrl) })
  // Hashing a password (argon2id) takes ~150 ms on a worker thread: the app is built meanwhile, and
  // the pod answers only once the password is in place.
  const setupLinkReady = setUpOwnerPassword(cfg, store)
  const deps = makeDeps(cfg, store, now)
  const app = buildApp(deps)
  const handle = makeRequestHandler(app, deps)
  const reclaimer = startMemoryReclaimer()
  const inFlight = makeInFlight()
  const handler: FetchHandler = (request, server) => { reclaimer.noteRequest(); return inFlight.track(handle(request, server)) }
  const setupLink = await setupLinkReady
  const server = early ?? listen(cfg, handler)
  early?.reload({ fetch: handler, error: lastResort })
  log.info('server.listening', { url: cfg.baseUrl, port: server.port, host: cfg.host, data: cfg.dataDir })
  compactInBackground(store)
  const stopRecordSweeps = sweepExpiredRecordsRegularly(store, {
    onSwept: count => log.info('store.expired_records_swept', { count }),
    onError: err => log.warn('store.record_sweep_failed', { cause: describeCause(err) }),
  })
  let closeControl = () => {}
  try {
    closeControl = openControlSocket(cfg.dataDir, {
      issueSetupLink: async () => {
        const token = await createSetupToken(store, Date.now())
        log.info('owner.setup_link_issued', { via: 'control-socket' })
        return setupLinkOf(cfg.baseUrl, token)
      },
      // LevelDB lets one process open the database: the running server writes the export itself.
      exportTo: async (dest) => {
        const started = performance.now()
        const at = Date.now()
        const counts = await (await loadExport()).exportPod(store, dest, at)
        await recordBackup(store, { at: new Date(at).toISOString(), via: 'export', resources: counts.resources })
        log.info('export.finished', { via: 'control-socket', resources: counts.resources, quads: counts.quads, ms: Math.round(performance.now() - started) })
        return { ...counts }
      },
      commitStats: () => store.commitStats,
    })
  } catch (err) {
    log.warn('control.unavailable', { reason: err instanceof ControlSocketError ? err.message : describeCause(err) })
  }
  // For the person at the terminal (and tests that let the system pick the port), whatever the log
  // level: stderr, apart from the JSON log lines on stdout.
  console.error(formatBanner({
    version: VERSION, baseUrl: cfg.baseUrl, host: cfg.host, port: server.port!, webid: ownerWebIdOf(cfg.baseUrl),
    dataDir: cfg.dataDir, logLevel: cfg.logLevel, ...(setupLink ? { setupLink } : {}),
  }))

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('server.stopping', { signal })
    // Without `force`, Bun lets requests of connected clients finish before the promise settles;
    // handlers whose client went away are still running, and the database stays open for them.
    await server.stop()
    if (!await inFlight.drained(STOP_DRAIN_MS)) log.warn('server.stop_timeout', { inFlight: inFlight.count, ms: STOP_DRAIN_MS })
    reclaimer.stop()
    await stopRecordSweeps()
    // Spent UMA tickets are written without waiting for a sync; they reach the database before it closes
    await deps.tickets.flush().catch((err: unknown) => log.warn('tickets.flush_failed', { cause: describeCause(err) }))
    closeControl()
    await store.close()
    log.info('server.stopped', {})
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}

async function addKey(cfg: Config) {
  if (cfg.args[0] !== 'add' || cfg.args.length !== 1) throw new ConfigError('usage: solopod keys add --data DIR [--name N] [--out FILE]')
  if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first, see --data)`)
  const name = cfg.keyName ?? defaultKeyName(new Date())
  const out = cfg.keyOut ?? join(cfg.dataDir, 'private-keys', `${name}.jwk`)
  if (existsSync(out)) throw new KeyCommandError(`${out} already exists; it is never overwritten (choose another --out)`)
  const store = await openDataDir(cfg.dataDir)
  let key
  try {
    const baseUrl = await getRecordedBaseUrl(store)
    if (!baseUrl) throw new ConfigError(`${cfg.dataDir} holds no pod (start it once first)`)
    key = await addOwnerKey(store, baseUrl, name, Date.now())
  } finally { await store.close() }
  writePrivateJwk(out, key.privateJwk)
  console.log([
    `solopod: new key ${key.keyUrl} (linked from ${key.webid} with cert:key)`,
    `private JWK (keep it secret): ${out}`,
    `sign requests per RFC 9421 with keyid="${key.keyUrl}" and send: Authorization: HttpSig proof=sig1, cred="<${key.webid}>"`,
  ].join('\n'))
}

async function run(argv: string[]) {
  if (argv.includes('--help') || argv.includes('-h')) { console.log(usage()); return }
  if (argv.includes('--version')) { console.log(`solopod ${VERSION}`); return }
  const cfg = buildConfig(argv, process.env)
  setLogLevel(cfg.logLevel)
  switch (cfg.command) {
    case 'serve': return serve(cfg)
    case 'export': {
      if (!cfg.args[0]) throw new ConfigError('export needs a destination directory: solopod export DEST')
      const dest = resolve(cfg.args[0])
      if (!existsSync(join(cfg.dataDir, 'db'))) throw new ConfigError(`${cfg.dataDir} holds no pod to export (see --data)`)
      // A running pod holds the database: it exports a snapshot itself (cli/control-socket.ts).
      if (await requestExport(cfg.dataDir, dest)) {
        console.log(`solopod: exported the running pod at ${cfg.dataDir} to ${dest}`)
        return
      }
      const store = await openDataDir(cfg.dataDir)
      try {
        const at = Date.now()
        const counts = await (await loadExport()).exportPod(store, dest, at)
        await recordBackup(store, { at: new Date(at).toISOString(), via: 'export', resources: counts.resources })
      } finally { await store.close() }
      console.log(`solopod: exported ${cfg.dataDir} to ${dest}`)
      return
    }
    case 'import': {
      const src = cfg.args[0]
      if (!src) throw new ConfigError('import needs a source: an export directory or a backup archive (.tar.gz): solopod import SRC')
      // The import writes the keys into a new data directory: it must be private from its first file
      // (import-pod.ts builds it beside the target and moves it in, so an empty target's own mode goes).
      process.umask(0o077)
      const { importPod } = await loadImport()
      if (existsSync(src) && statSync(src).isFile()) {
        // A backup downloaded from the dashboard: unpacked beside the new data directory, removed after
        const work = dirname(resolve(cfg.dataDir))
        mkdirSync(work, { recursive: true })
        const { holder, exportDir } = await (await loadArchive()).unpackExportArchive(src, work)
        try { await importPod(cfg.dataDir, exportDir, cfg.baseUrl) } finally { rmSync(holder, { recursive: true, force: true }) }
      } else await importPod(cfg.dataDir, src, cfg.baseUrl)
      console.log(`solopod: imported ${src} into ${cfg.dataDir} for ${cfg.baseUrl}`)
      return
    }
    case 'setup-link': return printSetupLink(cfg)
    case 'passwd': {
      let ended = { logins: 0, appSessions: 0 }
      const store = await openDataDir(cfg.dataDir)
      try {
        const password = cfg.ownerPasswordFile ? readPasswordFile(cfg.ownerPasswordFile) : await readPasswordFromStdin()
        const problem = checkPasswordStrength(password)
        if (problem) throw new ConfigError(problem)
        await setOwnerPassword(store, password)
        ended = await endOwnerLogins(store, makeSessionRevocations(store), Date.now())
      } finally { await store.close() }
      console.log(`solopod: the owner's password was changed; ${ended.logins} browser login(s) and ${ended.appSessions} app session(s) started from them ended`)
      return
    }
    case 'keys': return addKey(cfg)
  }
}

run(process.argv.slice(2)).catch(async err => {
  const { ExportError } = await loadExport()
  const { ImportError } = await loadImport()
  if (err instanceof ConfigError || err instanceof StoreFormatError || err instanceof BaseUrlMismatchError ||
    err instanceof ExportError || err instanceof ImportError || err instanceof DataDirError || err instanceof KeyCommandError || err instanceof ControlSocketError) {
    console.error(`solopod: ${err.message}`)
    process.exit(2)
  }
  // LevelDB allows one process per database: say so instead of printing the lock error.
  if (/lock/i.test(describeCause(err))) {
    console.error('solopod: the data directory is in use by another solopod process (stop it first, or use another --data)')
    process.exit(2)
  }
  console.error(`solopod: failed: ${describeCause(err)}`)
  process.exit(1)
})
