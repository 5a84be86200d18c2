// An in-process pod for resource-server tests: real classic-level store in a temp dir, app.handle.

import type { Store } from '../../src/store/open-store.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { openTempPod } from '../temp-pod.ts'

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

export async function openPod(opts: { maxBodyBytes?: number; maxPatchBytes?: number; publicWrite?: string[]; now?: () => number } = {}): Promise<Pod> {
  const pod = await openTempPod(
    'rs',
    BASE,
    [
      ...(opts.maxBodyBytes ? ['--max-body-bytes', String(opts.maxBodyBytes)] : []),
      ...(opts.maxPatchBytes ? ['--max-patch-bytes', String(opts.maxPatchBytes)] : []),
    ],
    opts.now ? { now: opts.now } : {},
  )
  for (const p of opts.publicWrite ?? []) {
    await seedTurtle(pod.store, BASE, p, '')
    await seedTurtle(pod.store, BASE, `${p}.acl`, publicWriteAcl(BASE + p))
  }
  return {
    store: pod.store,
    base: BASE,
    request: (path, init) => pod.handle(new Request(BASE + path, init)),
    close: pod.close,
  }
}
