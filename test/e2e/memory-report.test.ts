// The control socket's memory report, which `bun run bench` and `bun run soak` print (issue 9 "Memory").

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { controlSocketPath, requestMemoryReport } from '../../src/server/control-socket.ts'

let pod: RunningPod
beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--log-level', 'warn'] })
})
afterAll(async () => {
  await pod?.dispose()
})

describe('memory report on the control socket', () => {
  test('gives the RSS and the JS heap in it, and the group-commit counts, nothing else', async () => {
    const report = (await requestMemoryReport(pod.dataDir))!
    expect(Object.keys(report).sort()).toEqual(['arrayBuffersMb', 'commits', 'externalMb', 'heapCapacityMb', 'heapMb', 'heapObjects', 'rssMb'])
    expect(Object.keys(report.commits!).sort()).toEqual(['batches', 'writes'])
    expect(report.commits!.writes).toBeGreaterThanOrEqual(report.commits!.batches)
    expect(report.heapMb).toBeGreaterThan(0)
    expect(report.rssMb).toBeGreaterThan(report.heapMb)
    expect(report.heapObjects).toBeGreaterThan(1000)
  })
  test('answers POST only, on the socket only', async () => {
    const res = await fetch('http://solopod/memory', { unix: controlSocketPath(pod.dataDir) })
    expect(res.status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${pod.port}/memory`, { method: 'POST' })).status).not.toBe(200)
  })
})
