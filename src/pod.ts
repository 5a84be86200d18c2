// Opens a pod from its config: data directory → store → owner → deps → app → request handler, and closes it.
// `solopod serve` (server/serve-pod.ts) and every in-process test fixture start a pod through here.

import { readFileSync } from 'node:fs'
import { ConfigError, ownerWebIdOf, type Config } from './config.ts'
import { prepareDataDir } from './data-dir.ts'
import { openStore, type Store, type StoreOptions } from './store/open-store.ts'
import { ensureOwner } from './first-start.ts'
import { migrateDataFormat } from './migrations/data-format.ts'
import { makeDeps, type Deps, type DepsOptions } from './deps.ts'
import { buildApp, makeRequestHandler, type PodApp } from './app.ts'
import { createSetupToken, getOwnerAccount, setOwnerPassword } from './account/owner-account.ts'
import { checkPasswordStrength } from './lib/password-rules.ts'
import { ADMIN_PATHS } from './http/pod-paths.ts'
import { describeCause, log } from './log.ts'
import { markStart } from './lib/start-timeline.ts'
import { memoryShares } from './lib/memory-budget.ts'

export type RequestHandler = ReturnType<typeof makeRequestHandler>

export interface Pod {
  readonly cfg: Config
  readonly store: Store
  readonly deps: Deps
  readonly app: PodApp
  /** Every request of the pod goes through this (the server's fetch handler; tests call it in-process). */
  readonly handle: RequestHandler
  /** Writes what is still pending (spent UMA tickets) and closes the store. */
  close(): Promise<void>
}

export interface PodOptions extends DepsOptions {
  /** The pod's clock (tests control it); first start dates the owner's documents with it too. */
  readonly now?: () => number
  /**
   * The owner's password, set when the owner has none yet. Without it, `cfg.ownerPasswordFile`
   * (`--owner-password-file`) is read, again only when no password is set.
   */
  readonly ownerPassword?: string
}

/**
 * Every command opens the store through here: the data directory is made private (or refused) before its
 * first file, and its contents are brought to the current data format before anything reads them.
 */
export async function openDataDir(dataDir: string, now = Date.now(), opts: StoreOptions = {}): Promise<Store> {
  prepareDataDir(dataDir)
  const store = await openStore(dataDir, opts)
  try {
    await migrateDataFormat(store, now)
  } catch (err) {
    await store.close()
    throw err
  }
  return store
}

export async function openPod(cfg: Config, opts: PodOptions = {}): Promise<Pod> {
  const now = opts.now ?? (() => Date.now())
  const store = await openDataDir(cfg.dataDir, now(), {
    keepVersions: cfg.keepVersionsDays > 0,
    memory: memoryShares(cfg.memoryBudgetBytes),
    ...(cfg.s3 ? { s3: cfg.s3 } : {}),
  })
  markStart('store-open')
  const created = await ensureOwner(store, cfg.baseUrl, now())
  markStart('owner')
  if (created) log.info('owner.created', { webid: ownerWebIdOf(cfg.baseUrl) })
  // Hashing a password (argon2id) takes ~150 ms on a worker thread: the app is built meanwhile, and
  // the pod is returned only once the password is in place.
  const passwordSet = setPasswordIfNone(store, opts.ownerPassword, cfg.ownerPasswordFile)
  const deps = makeDeps(cfg, store, now, opts.fetcher ? { fetcher: opts.fetcher } : {})
  const app = buildApp(deps)
  const handle = makeRequestHandler(app, deps)
  markStart('app')
  // Stored webhook channels are registered again before the first request: no write goes unjournaled
  await deps.webhooks.start()
  await passwordSet
  markStart('webhooks')
  return {
    cfg,
    store,
    deps,
    app,
    handle,
    close: async () => {
      // Open notification channels end first: nothing is told from a store that is closing. Webhook deliveries
      // in flight finish (each within its timeout); what is left stays in the outbox for the next start.
      await deps.webhooks.stop()
      deps.channels.close()
      // Spent UMA tickets are written without waiting for a sync; they reach the database before it closes
      await deps.tickets.flush().catch((err: unknown) => log.warn('tickets.flush_failed', { cause: describeCause(err) }))
      // The share links' uses counted since the last write (their own failure is logged)
      await deps.linkUses.close()
      await store.close()
    },
  }
}

async function setPasswordIfNone(store: Store, password: string | undefined, passwordFile: string | undefined) {
  if (password === undefined && passwordFile === undefined) return
  if ((await getOwnerAccount(store))?.passwordHash) return
  await setOwnerPassword(store, password ?? readPasswordFile(passwordFile!))
}

/** `--owner-password-file`: its first line, refused (naming the flag) when too weak. */
export function readPasswordFile(file: string): string {
  const password = readFileSync(file, 'utf8').replace(/\r?\n$/, '')
  const problem = checkPasswordStrength(password)
  if (problem) throw new ConfigError(`--owner-password-file: ${problem}`)
  return password
}

/** A new one-time link to set the owner's password. */
export async function newSetupLink(store: Store, baseUrl: string, now: number): Promise<string> {
  return `${baseUrl}${ADMIN_PATHS.setup}?token=${await createSetupToken(store, now)}`
}

/** The setup link to print at start while the owner has no password and none is configured. */
export async function setupLinkIfNoPassword(pod: Pod): Promise<string | undefined> {
  if (pod.cfg.ownerPasswordFile || (await getOwnerAccount(pod.store))?.passwordHash) return undefined
  return newSetupLink(pod.store, pod.cfg.baseUrl, Date.now())
}
