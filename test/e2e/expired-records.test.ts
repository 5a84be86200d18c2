// A running pod deletes records that expired long ago (issue 9: the data directory stays proportional to the live data).

import { expect, test } from 'bun:test'
import { openStore } from '../../src/store/open-store.ts'
import { putRecord } from '../../src/store/records.ts'
import { SWEEP_GRACE_MS } from '../../src/store/expired-records.ts'
import { startPod } from './start-server.ts'

test('records expired long ago are gone from the data directory once the pod has started, live ones stay', async () => {
  const pod = await startPod({
    seed: async dataDir => {
      const store = await openStore(dataDir)
      try {
        await putRecord(store, 'auth-code', 'old-code', { used: true }, Date.now() - SWEEP_GRACE_MS - 60_000)
        await putRecord(store, 'session', 'still-live', { x: 1 }, Date.now() + 3_600_000)
      } finally {
        await store.close()
      }
    },
  })
  try {
    for (let i = 0; i < 100 && !pod.output().includes('"store.expired_records_swept"'); i++) await Bun.sleep(50)
    expect(pod.output()).toMatch(/"event":"store\.expired_records_swept","count":1}/)
    await pod.stop()
    const store = await openStore(pod.dataDir)
    try {
      expect(await store.records.get('auth-code\0old-code')).toBeUndefined()
      expect(await store.records.get('session\0still-live')).toBeDefined()
    } finally {
      await store.close()
    }
  } finally {
    await pod.dispose()
  }
})

test('the sweeps begin a second after the pod listens, not before its first requests', async () => {
  const pod = await startPod({
    seed: async dataDir => {
      const store = await openStore(dataDir)
      try {
        await putRecord(store, 'auth-code', 'old-code', { used: true }, Date.now() - SWEEP_GRACE_MS - 60_000)
      } finally {
        await store.close()
      }
    },
  })
  try {
    const at = (event: string) => Date.parse(JSON.parse(new RegExp(`^.*"event":"${event}".*$`, 'm').exec(pod.stdout())![0]).t)
    for (let i = 0; i < 100 && !pod.output().includes('"store.expired_records_swept"'); i++) await Bun.sleep(50)
    expect(at('store.expired_records_swept') - at('server.listening')).toBeGreaterThanOrEqual(1_000)
  } finally {
    await pod.dispose()
  }
})
