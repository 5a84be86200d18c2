// Issue 33 for HttpSig: one busy signer must not make every signer's requests fail. Over real HTTP, with each key's
// share of the nonce memory shrunk to 20 (--httpsig-nonces-per-key): A floods past its share and alone gets 429, B is served.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { writeTurtle } from './seed-store.ts'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'
import { readAcl } from '../auth/httpsig/key-fixture.ts'
import { expectRefusedAlone } from './over-share.ts'

const SHARE = 20
const keysDir = mkdtempSync(join(tmpdir(), 'solopod-keys-'))
let pod: RunningPod

beforeAll(async () => {
  pod = await startPod({
    extraArgs: ['--httpsig-nonces-per-key', String(SHARE), '--log-level', 'info'],
    seed: async (dataDir, baseUrl) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, baseUrl, Date.now())
        await writeTurtle(store, baseUrl, '/shared/doc', '<#it> <http://purl.org/dc/terms/title> "secret".')
        await writeTurtle(
          store,
          baseUrl,
          '/shared/doc.acl',
          readAcl(`${baseUrl}/shared/doc`, 'acl:agent [ cert:key </keys/a#key> ], [ cert:key </keys/b#key> ]'),
        )
      } finally {
        await store.close()
      }
      for (const name of ['a', 'b']) {
        const r = await runSolopod('keys', 'add', '--data', dataDir, '--name', name, '--out', join(keysDir, `${name}.jwk`))
        expect(r.code).toBe(0)
      }
    },
  })
}, 60_000)
afterAll(async () => {
  await pod?.dispose()
  rmSync(keysDir, { recursive: true, force: true })
})

const keyOf = (name: 'a' | 'b') => privateKeyOf(JSON.parse(readFileSync(join(keysDir, `${name}.jwk`), 'utf8')) as Record<string, unknown>)
const sign = (name: 'a' | 'b', created: number, o: { signer?: 'a' | 'b'; nonce?: string } = {}) =>
  signedHeaders(`${pod.baseUrl}/shared/doc`, {
    key: keyOf(o.signer ?? name),
    alg: 'ecdsa-p256-sha256',
    keyid: `/keys/${name}#key`,
    created,
    ...(o.nonce ? { nonce: o.nonce } : {}),
  })
const get = (headers: Record<string, string>) =>
  fetch(`${pod.baseUrl}/shared/doc`, { headers: { ...headers, accept: 'text/turtle, application/problem+json' } })

describe('HttpSig nonce memory per signing key, over real HTTP', () => {
  test("A past its share gets 429 too_many_requests with Retry-After, alone; B's requests all succeed; a replay is 401; one log line", async () => {
    // every signature of A in one second of created, so exactly SHARE + 1 fit however the requests interleave
    const created = Math.floor(Date.now() / 1000)
    const aSigs = await Promise.all(Array.from({ length: 3 * SHARE }, () => sign('a', created)))
    const bSigs = await Promise.all(Array.from({ length: SHARE - 5 }, () => sign('b', created)))
    const [aRes, bRes] = await Promise.all([Promise.all(aSigs.map(get)), Promise.all(bSigs.map(get))])
    await expectRefusedAlone(aRes, bRes, SHARE)
    // a nonce B's share still holds, replayed: the exact 401
    const replay = await get(bSigs[0]!)
    expect(replay.status).toBe(401)
    expect(replay.headers.get('www-authenticate')).toContain('error="invalid_signature"')
    expect(await replay.text()).toContain('this nonce was already used with this key')
    // A's next second of created is accepted again
    await Bun.sleep((created + 1) * 1000 - Date.now() + 10)
    expect((await get(await sign('a', Math.floor(Date.now() / 1000)))).status).toBe(200)
    // one warn line for A in the interval, and no per-request line for its 429s
    const lines = pod
      .stdout()
      .split('\n')
      .filter(l => l.startsWith('{'))
      .map(l => JSON.parse(l) as Record<string, unknown>)
    const over = lines.filter(l => l.event === 'httpsig.key_over_share')
    expect(over.map(l => [l.level, l.keyid, l.perKey])).toEqual([['warn', `${pod.baseUrl}/keys/a#key`, SHARE]])
    expect(lines.filter(l => l.event === 'request.refused' && l.status === 429)).toEqual([])
  })

  test("a signature that does not verify leaves nothing in the named key's share: its nonce stays B's to use", async () => {
    const created = Math.floor(Date.now() / 1000)
    const forged = await get(await sign('b', created, { signer: 'a', nonce: 'poison' }))
    expect(forged.status).toBe(401)
    expect(await forged.text()).toContain('does not verify')
    expect((await get(await sign('b', created, { nonce: 'poison' }))).status).toBe(200)
  })
})
