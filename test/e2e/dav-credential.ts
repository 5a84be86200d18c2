// A client credential made as the owner makes one (`solopod clients add`), for a WebDAV client's HTTP Basic.

import { expect } from 'bun:test'
import { runSolopod, type RunningPod } from './start-server.ts'

export interface DavCredential {
  id: string
  secret: string
}

/** `solopod clients add ARGS` against the pod's data: its client_id and client_secret. */
export async function addDavClient(pod: RunningPod, ...args: string[]): Promise<DavCredential> {
  const r = await runSolopod('clients', 'add', ...args, '--data', pod.dataDir)
  expect(r.code).toBe(0)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  return { id: id!, secret: secret! }
}

export const basicAuth = (c: DavCredential) => `Basic ${btoa(`${c.id}:${c.secret}`)}`
