// The owner's requests in a test, as a script with a client credential makes them (`solopod clients add`, a DPoP-bound token).

import { expect } from 'bun:test'
import { FORM, dpopProof, newDpopKey } from '../op/op-fixture.ts'
import { runSolopod, type RunningPod } from './start-server.ts'

export type OwnerSend = (method: string, path: string, body?: BodyInit, headers?: Record<string, string>) => Promise<Response>

/** A credential with full access for the running pod, and a function sending requests with its token. */
export async function ownerScript(pod: RunningPod): Promise<OwnerSend> {
  const c = await runSolopod('clients', 'add', '--name', 'Owner script', '--data', pod.dataDir)
  expect(c.code).toBe(0)
  const [id, secret] = c.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  const key = await newDpopKey()
  const tokenUrl = `${pod.baseUrl}/.oidc/token`
  const t = await fetch(tokenUrl, {
    method: 'POST',
    body: 'grant_type=client_credentials',
    headers: { 'content-type': FORM, authorization: `Basic ${btoa(`${id}:${secret}`)}`, dpop: await dpopProof(key, 'POST', tokenUrl, Date.now()) },
  })
  const token = ((await t.json()) as { access_token: string }).access_token
  return async (method, path, body, headers = {}) => {
    const url = pod.baseUrl + path
    return fetch(url, {
      method,
      ...(body !== undefined ? { body } : {}),
      headers: { ...headers, authorization: `DPoP ${token}`, dpop: await dpopProof(key, method, url, Date.now(), { accessToken: token }) },
    })
  }
}
