// Serves a pod over HTTP and runs what lives as long as the server: the handlers in flight (a stop waits
// for them), the memory reclaimer, the expired-record sweeps, a start-up compaction and the control socket.

import { readFileSync } from 'node:fs'
import { type Config, withBoundPort } from '../config.ts'
import { newSetupLink, openPod, setupLinkIfNoPassword, type Pod, type PodOptions, type RequestHandler } from '../pod.ts'
import { startMemoryReclaimer } from '../lib/memory-reclaimer.ts'
import { makeInFlight } from '../lib/in-flight.ts'
import { recordBackup } from '../store/last-backup.ts'
import { sweepExpiredRecordsRegularly } from '../store/expired-records.ts'
import { sweepExpiredUploadsRegularly } from '../store/expired-uploads.ts'
import { sweepObjectsRegularly } from '../store/object-sweep.ts'
import { DEFAULT_SWEEP_GRACE_MS } from '../store/blob-location.ts'
import { sweepTrashRegularly } from '../store/trash-sweep.ts'
import { sweepVersionsRegularly } from '../store/version-sweep.ts'
import { totalBytesAt } from '../store/disk-space.ts'
import type { Store } from '../store/open-store.ts'
import { describeCause, log } from '../log.ts'
import { ControlSocketError, openControlSocket } from './control-socket.ts'
import { credentialActions, type ClientCredentialActions } from './client-credential-actions.ts'
import { shareLinkActions, type ShareLinkActions } from './share-link-actions.ts'
import { socketHandlers } from '../http/socket-session.ts'
import { lastResort, listen, type PodServer } from './listen.ts'
import { listenWithAcme, type Listener } from './acme-listener.ts'
import { bindOrExplain, claimSharedPort, refuseTakenPort } from './port-claim.ts'
import { readCertificateInfo } from '../acme/certificate-info.ts'
import { unbuiltScripts } from '../http/static-files.ts'
import { UserError } from '../lib/user-error.ts'
import { moveBlobs } from '../store/move-blobs.ts'
import { describeBlobLocation, locationOf, s3ConfigOf } from '../store/blob-location.ts'
import { openBlobStore } from '../store/open-blob-store.ts'
import { REMOVE_AFTER_MS } from '../store/deferred-removal.ts'
import { afterFirstResponse, markStart } from '../lib/start-timeline.ts'

// The export code is loaded when the control socket asks for an export: not on every start of the server.
const loadExport = () => import('../store/export-pod.ts')

/** After listening, when the sweeps and the start-up compaction begin. */
const BACKGROUND_AFTER_MS = 1_000

/** How long a stop waits for handlers still running (a large upload being written, a queued write). */
const STOP_DRAIN_MS = 30_000

export interface ServingPod {
  readonly pod: Pod
  /** The port listened on (the system's choice for --port 0). */
  readonly port: number
  /** A one-time link to set the owner's password, while none is set or configured. */
  readonly setupLink?: string
  /** Stops taking requests, waits for those under way (at most 30 s), stops the timers, closes the store. */
  stop(signal: string): Promise<void>
}

export async function servePod(given: Config, opts: PodOptions = {}): Promise<ServingPod> {
  // From source, the dashboard's script is what `bun run build:ui` wrote (npm start and npm test run it first)
  const unbuilt = unbuiltScripts()
  if (unbuilt.length > 0)
    throw new UserError(`the dashboard's script is not built (${unbuilt.join(', ')}): run \`npm run build:ui\` first (\`npm start\` does it)`)
  // The port before anything else: a pod that cannot have it (another pod or program serves it) stops
  // before it opens, or creates, a data directory (server/port-claim.ts).
  // --port 0: the system picks a free port. It is bound now, so a base URL left to its default can name
  // it; until the pod is ready that listener answers 503. Another port is proved free by a plain bind now
  // and bound once the pod is ready (so that whatever answers there is the pod): should another process
  // take it in between, that bind fails as this one would have.
  const early = given.port === 0 ? listen(given, async () => new Response('starting\n', { status: 503 })) : undefined
  if (!given.acme && !early) refuseTakenPort(given.host, given.port, '--port')
  const httpsPort = given.acme ? claimSharedPort(given.host, given.port, '--port') : undefined
  const cfg = early ? withBoundPort(given, early.port!) : given
  let pod: Pod
  try {
    pod = await openPod(cfg, opts)
  } catch (err) {
    early?.stop(true)
    httpsPort?.release()
    throw err
  }
  const { store } = pod
  const setupLink = await setupLinkIfNoPassword(pod)
  const reclaimer = startMemoryReclaimer({ flush: () => store.flushWrites() })
  const inFlight = makeInFlight()
  const handler: RequestHandler = (request, server) => {
    reclaimer.noteRequest()
    return inFlight.track(afterFirstResponse(pod.handle(request, server)))
  }
  let server: Listener
  try {
    server = httpsPort
      ? await listenWithAcme(pod, handler, httpsPort)
      : asListener(early ?? bindOrExplain(cfg.host, cfg.port, '--port', () => listen(cfg, handler)))
  } catch (err) {
    early?.stop(true)
    reclaimer.stop()
    await pod.close()
    throw err
  }
  early?.reload({ fetch: handler, error: lastResort })
  if (cfg.tlsCert) noteCertificateFile(pod)
  markStart('listening')
  log.info('server.listening', { url: cfg.baseUrl, port: server.port, host: cfg.host, data: cfg.dataDir })
  // The sweeps and the start-up compaction read and rewrite the store: they begin a moment after the pod
  // listens, so the first requests of a restart do not wait behind them (docs/performance.md "Start-up").
  let stopBackground: (() => Promise<void>) | undefined
  const backgroundTimer = setTimeout(() => {
    stopBackground = startBackgroundWork(pod)
  }, BACKGROUND_AFTER_MS)
  const closeControl = openControlSocketOf(pod)
  markStart('control-socket')

  let stopped: Promise<void> | undefined
  const stop = (signal: string) =>
    (stopped ??= (async () => {
      log.info('server.stopping', { signal })
      // Without `force`, Bun lets requests of connected clients finish before the promise settles;
      // handlers whose client went away are still running, and the database stays open for them.
      await server.stop()
      if (!(await inFlight.drained(STOP_DRAIN_MS))) log.warn('server.stop_timeout', { inFlight: inFlight.count, ms: STOP_DRAIN_MS })
      reclaimer.stop()
      clearTimeout(backgroundTimer)
      await stopBackground?.()
      closeControl()
      await pod.close()
      log.info('server.stopped', {})
    })())
  return { pod, port: server.port, ...(setupLink ? { setupLink } : {}), stop }
}

/** The start-up compaction and the regular sweeps of leftovers; returns their stop (resolves once no sweep runs). */
function startBackgroundWork({ cfg, store, deps }: Pod): () => Promise<void> {
  compactInBackground(store)
  const stopRecordSweeps = sweepExpiredRecordsRegularly(store, {
    onSwept: count => log.info('store.expired_records_swept', { count }),
    onError: err => log.warn('store.record_sweep_failed', { cause: describeCause(err) }),
  })
  const stopUploadSweeps = sweepExpiredUploadsRegularly(store, {
    now: deps.now,
    onSwept: count => log.info('store.expired_uploads_swept', { count }),
    onError: err => log.warn('store.upload_sweep_failed', { cause: describeCause(err) }),
  })
  const stopTrashSweeps = sweepTrashRegularly(store, {
    now: deps.now,
    onSwept: count => log.info('store.trash_swept', { count }),
    onError: err => log.warn('store.trash_sweep_failed', { cause: describeCause(err) }),
  })
  const stopVersionSweeps = sweepVersionsRegularly(store, {
    now: deps.now,
    keepDays: cfg.keepVersionsDays,
    share: { percent: cfg.versionsDiskShare, fsBytes: () => totalBytesAt(cfg.dataDir) },
    onSwept: count => log.info('store.versions_thinned', { count }),
    onCapped: r => log.info('store.versions_capped', { versions: r.versions, trashItems: r.trashItems, bytes: r.bytes, heldBytes: r.heldBytes }),
    onError: err => log.warn('store.version_sweep_failed', { cause: describeCause(err) }),
  })
  const stopObjectSweeps = sweepObjectsRegularly(store, {
    everyMs: cfg.s3?.sweepGraceMs ?? DEFAULT_SWEEP_GRACE_MS,
    onSwept: count => log.info('store.blobs_swept', { files: count }),
    onError: err => log.warn('blob.sweep_failed', { cause: describeCause(err) }),
  })
  return async () => {
    await stopRecordSweeps()
    await stopUploadSweeps()
    await stopTrashSweeps()
    await stopVersionSweeps()
    await stopObjectSweeps()
  }
}

const asListener = (s: PodServer): Listener => ({ port: s.port!, stop: () => s.stop() })

/** --tls-cert: the dashboard and the metrics show its expiry too (someone else renews it). */
function noteCertificateFile({ cfg, deps }: Pod) {
  try {
    deps.certificate.set({ source: 'files', info: readCertificateInfo(readFileSync(cfg.tlsCert!, 'utf8')) })
  } catch (err) {
    log.warn('tls.certificate_unreadable', { reason: describeCause(err) })
  }
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
    (err: unknown) => log.warn('store.compaction_failed', { cause: describeCause(err) }),
  )
}

/** The control socket of a running pod; a pod without one still serves (it logs why). Returns its close. */
function openControlSocketOf({ cfg, store, deps }: Pod): () => void {
  try {
    return openControlSocket(cfg.dataDir, {
      issueSetupLink: async () => {
        const link = await newSetupLink(store, cfg.baseUrl, Date.now())
        log.info('owner.setup_link_issued', { via: 'control-socket' })
        return link
      },
      // LevelDB lets one process open the database: the running server writes the export itself.
      exportTo: async dest => {
        const started = performance.now()
        const at = Date.now()
        const counts = await (await loadExport()).exportPod(store, dest, at)
        await recordBackup(store, { at: new Date(at).toISOString(), via: 'export', resources: counts.resources })
        log.info('export.finished', { via: 'control-socket', resources: counts.resources, quads: counts.quads, ms: Math.round(performance.now() - started) })
        return { ...counts }
      },
      commitStats: () => store.commitStats,
      clients: loggedClientActions(credentialActions(deps, cfg.baseUrl, deps.now)),
      links: loggedLinkActions(shareLinkActions(store, cfg.baseUrl, deps.now, deps.linkUses.pending)),
      moveBlobs: async (to, keys, progress, signal) => {
        log.info('blobs.move_started', { via: 'control-socket', to: describeBlobLocation(to) })
        const report = await moveBlobs(store, to, {
          configured: locationOf(cfg.s3),
          open: at =>
            openBlobStore(
              cfg.dataDir,
              s3ConfigOf(at, cfg.s3),
              keys ? { AWS_ACCESS_KEY_ID: keys.accessKeyId, AWS_SECRET_ACCESS_KEY: keys.secretAccessKey } : undefined,
            ),
          // As long as a replaced blob stays (deferred-removal.ts): a GET that chose an old copy still reads it.
          settleMs: REMOVE_AFTER_MS,
          reserveBytes: cfg.diskReserveBytes,
          progress,
          signal,
        })
        log.info('blobs.moved', {
          to: describeBlobLocation(to),
          files: report.files,
          bytes: report.bytes,
          deleted: report.deleted,
          missing: report.missing.length,
        })
        return report
      },
    })
  } catch (err) {
    log.warn('control.unavailable', { reason: err instanceof ControlSocketError ? err.message : describeCause(err) })
    return () => {}
  }
}

/** The running pod's log names what `solopod links` changed: the link's id, never its URL (the token is the key). */
function loggedLinkActions(actions: ShareLinkActions): ShareLinkActions {
  return {
    ...actions,
    add: async request => {
      const added = await actions.add(request)
      log.info('share_link.added', { via: 'control-socket', id: added.link.id, allows: added.link.allows })
      return added
    },
    remove: async id => {
      const removed = await actions.remove(id)
      if (removed) log.info('share_link.removed', { via: 'control-socket', id })
      return removed
    },
    settings: async change => {
      const told = await actions.settings(change)
      if (Object.keys(change).length > 0) log.info('share_link.settings', { via: 'control-socket', ...told })
      return told
    },
  }
}

/** The running pod's log names what `solopod clients` changed (never the secret). */
function loggedClientActions(actions: ClientCredentialActions): ClientCredentialActions {
  return {
    ...actions,
    add: async (name, scope) => {
      const added = await actions.add(name, scope)
      log.info('client_credential.added', { via: 'control-socket', clientId: added.credential.clientId, folders: added.credential.folders?.length ?? 'all' })
      return added
    },
    remove: async clientId => {
      const removed = await actions.remove(clientId)
      if (removed) log.info('client_credential.removed', { via: 'control-socket', clientId })
      return removed
    },
  }
}
