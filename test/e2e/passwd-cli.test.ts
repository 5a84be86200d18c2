// `solopod passwd` (server stopped): a new password ends the browser logins made with the old one,
// and the app sessions those logins approved, as a reset through the setup link does.

import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSolopod, startPod } from './start-server.ts'
import { openStore } from '../../src/store/open-store.ts'
import { createLoginSession, listLoginSessions } from '../../src/account/owner-session.ts'
import { listAppSessions, makeSessionRevocations, saveAppSession } from '../../src/account/app-sessions.ts'
import { verifyOwnerPassword } from '../../src/account/owner-account.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'

const work = mkdtempSync(join(tmpdir(), 'solopod-passwd-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

test('passwd ends every browser login and the app sessions started from it', async () => {
  const pod = await startPod({ dataDir: join(work, 'data'), extraArgs: ['--log-level', 'warn'] })
  await pod.stop()
  const baseUrl = `http://localhost:${pod.port}`
  const now = Date.now()
  const webid = `${baseUrl}/profile/card#me` as WebId
  let store = await openStore(pod.dataDir)
  try {
    const { session } = await createLoginSession(store, baseUrl, webid, null, now)
    await saveAppSession(
      store,
      {
        sid: 'app-1',
        clientId: 'https://app.example/id' as ClientId,
        webid,
        scope: 'openid webid',
        jkt: 'thumbprint',
        authTime: now,
        loginSessionId: session.id,
        createdAt: now,
        lastUsedAt: now,
      },
      now + 3_600_000,
    )
    expect(await listLoginSessions(store, now)).toHaveLength(1)
  } finally {
    await store.close()
  }

  const pw = join(work, 'new-password')
  writeFileSync(pw, 'a brand new owner password')
  const run = await runSolopod('passwd', '--data', pod.dataDir, '--owner-password-file', pw)
  expect(run.code).toBe(0)
  expect(run.stdout).toContain('1 browser login(s) and 1 app session(s)')

  store = await openStore(pod.dataDir)
  try {
    expect(await listLoginSessions(store, Date.now())).toEqual([])
    expect(await makeSessionRevocations(store).isRevoked('app-1', Date.now())).toBe(true)
    expect(await verifyOwnerPassword(store, 'a brand new owner password')).toBe(true)
    expect((await listAppSessions(store, Date.now())).map(s => s.sid)).not.toContain('app-1')
  } finally {
    await store.close()
  }
})
