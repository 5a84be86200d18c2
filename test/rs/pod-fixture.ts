// An in-process pod for resource-server tests: real classic-level store in a temp dir, app.handle.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildConfig } from '../../src/config.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { buildApp, makeRequestHandler } from '../../src/app.ts'
import { makeDeps } from '../../src/deps.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { setLogLevel } from '../../src/log.ts'

export const BASE = 'http://localhost:3999'

export interface Pod {
  readonly store: Store
  readonly base: string
  request(path: string, init?: RequestInit): Promise<Response>
  close(): Promise<void>
}

/** Writes a Turtle document straight into the store (how tests seed ACLs: no back door in the server). */
export async function seedTurtle(store: Store, base: string, path: string, ttl: string) {
  await writeTurtle(store, base, path, ttl)
}

export const publicWriteAcl = (containerPath: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${containerPath}>; acl:default <${containerPath}>;
  acl:mode acl:Read, acl:Write, acl:Control.`

export async function openPod(opts: { maxBodyBytes?: number; publicWrite?: string[]; now?: () => number } = {}): Promise<Pod> {
  setLogLevel('silent')
  const dir = mkdtempSync(join(tmpdir(), 'solopod-rs-'))
  const cfg = buildConfig(['--data', dir, '--base-url', BASE, ...(opts.maxBodyBytes ? ['--max-body-bytes', String(opts.maxBodyBytes)] : [])], {})
  const store = await openStore(cfg.dataDir)
  await ensureOwner(store, BASE, Date.now())
  for (const p of opts.publicWrite ?? []) {
    await seedTurtle(store, BASE, p, '')
    await seedTurtle(store, BASE, `${p}.acl`, publicWriteAcl(BASE + p))
  }
  const now = opts.now ?? (() => Date.now())
  const deps = makeDeps(cfg, store, now)
  const handler = makeRequestHandler(buildApp(deps), deps)
  return {
    store, base: BASE,
    request: (path, init) => handler(new Request(BASE + path, init)),
    close: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }) },
  }
}
