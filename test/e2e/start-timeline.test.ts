// SOLOPOD_START_TIMELINE (src/lib/start-timeline.ts): once the first response is sent, the pod prints the steps of
// its start in order, wall and CPU ms since the process began; test/bench/startup.ts reads the line. Without the
// variable it prints nothing of the kind.

import { afterEach, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'

const TIMELINE = /solopod: start timeline \(step wall-ms\/cpu-ms\): (.*)\n/
const STEPS = ['parsed', 'imported', 'store-open', 'owner', 'app', 'webhooks', 'listening', 'control-socket', 'first-response']

let pod: RunningPod | undefined
afterEach(async () => {
  await pod?.dispose()
  pod = undefined
  delete process.env.SOLOPOD_START_TIMELINE
})

async function firstAnswer(p: RunningPod) {
  const res = await fetch(`${p.baseUrl}/.well-known/openid-configuration`)
  expect(res.status).toBe(200)
  await res.arrayBuffer()
}

describe('start timeline', () => {
  test('with SOLOPOD_START_TIMELINE the steps of the start are printed once, in order, after the first response', async () => {
    process.env.SOLOPOD_START_TIMELINE = '1'
    pod = await startPod()
    await firstAnswer(pod)
    const [, line] = await pod.waitForOutput(TIMELINE)
    const steps = line!.split(', ').map(s => /^(\S+) (\d+\.\d)\/(\d+\.\d)$/.exec(s)!)
    expect(steps.map(s => s[1])).toEqual(STEPS)
    const walls = steps.map(s => Number(s[2]))
    const cpus = steps.map(s => Number(s[3]))
    expect(walls).toEqual([...walls].sort((a, b) => a - b))
    expect(cpus).toEqual([...cpus].sort((a, b) => a - b))
    expect(cpus[0]).toBeGreaterThan(0)
    await firstAnswer(pod)
    await pod.stop()
    expect(pod.stderr().match(new RegExp(TIMELINE.source, 'g'))?.length).toBe(1)
  })

  test('without it nothing is printed', async () => {
    pod = await startPod()
    await firstAnswer(pod)
    await pod.stop()
    expect(pod.stderr()).not.toContain('start timeline')
  })
})
