// GET /.admin/api/status and /.admin/status: what the owner is told of the pod — version, uptime, disk,
// the certificate and how its renewal goes (a failure shown at once, days before expiry), the last backup.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { podStatusRows, type PodStatus } from '../../src/admin/pod-status-rows.ts'
import pkg from '../../package.json' with { type: 'json' }

const DAY = 24 * 60 * 60 * 1000
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod('https://pod.example')
})
afterAll(() => pod.close())

const iso = (s: string) => s

describe('the owner API: GET /.admin/api/status', () => {
  test('version, start, disk, no certificate on a pod that serves none, no backup yet', async () => {
    const res = await pod.api('GET', '/.admin/api/status')
    expect(res.status).toBe(200)
    const status = (await res.json()) as PodStatus
    expect(status).toMatchObject({ version: pkg.version, certificate: null, lastBackup: null })
    expect(status.disk.usedBytes).toBeGreaterThan(0)
    expect(status.disk.freeBytes).toBeGreaterThan(0)
    expect(Date.parse(status.startedAt)).toBeLessThanOrEqual(Date.parse(status.now))
  })

  test('a failed renewal is a warning with its reason, 30 days before expiry', async () => {
    const now = pod.deps.now()
    pod.deps.certificate.set({
      // a minute over 30 days: the API reads the clock a few ms later, and days left are counted down (floor)
      source: 'acme',
      info: { notBefore: now - 60 * DAY, notAfter: now + 30 * DAY + 60_000, issuer: 'R11', names: ['pod.example'], serial: '01' },
      lastFailure: { at: now - 1000, reason: 'Error: connect ECONNREFUSED 203.0.113.9:443' },
      nextAttemptAt: now + 3_600_000,
    })
    const status = (await (await pod.api('GET', '/.admin/api/status')).json()) as PodStatus
    expect(status.certificate).toMatchObject({
      source: 'acme',
      names: ['pod.example'],
      health: 'warning',
      lastFailure: { reason: 'Error: connect ECONNREFUSED 203.0.113.9:443' },
    })
    const rows = podStatusRows(status, iso)
    expect(rows.find(r => r.label === 'Certificate')).toMatchObject({
      warning: true,
      text: expect.stringContaining('30 days left (renewed by the pod, from R11)'),
    })
    expect(rows.find(r => r.label === 'Renewal')).toMatchObject({ warning: true, text: expect.stringContaining('failed') })
  })

  test('the page without JavaScript shows the same rows', async () => {
    const res = await pod.request('/.admin/status', { headers: { cookie: pod.owner.header() } })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain(`<dd>solopod ${pkg.version}</dd>`)
    expect(page).toContain('<dd class="warning">failed ')
  })

  test('an expired certificate says so', () => {
    const now = Date.parse('2026-11-27T00:00:00Z')
    const rows = podStatusRows(
      {
        version: '1',
        now: new Date(now).toISOString(),
        startedAt: new Date(now - 3 * DAY).toISOString(),
        disk: { usedBytes: 2048, freeBytes: 1 << 30 },
        certificate: { source: 'acme', names: ['pod.example'], issuer: 'R11', notAfter: new Date(now - DAY).toISOString(), health: 'expired' },
        lastBackup: null,
      },
      iso,
    )
    expect(rows.map(r => r.text)).toContain('pod.example: expired 2026-11-26T00:00:00.000Z; browsers refuse the pod (renewed by the pod, from R11)')
    expect(rows[1]!.text).toBe('3 days, since 2026-11-24T00:00:00.000Z')
    expect(rows[2]!.text).toBe('2.0\u00a0KB used by the pod, 1.0\u00a0GB free')
  })

  test('anyone but the owner → 401 login_required', async () => {
    const res = await pod.request('/.admin/api/status')
    expect(res.status).toBe(401)
    expect((await res.json()).error).toBe('login_required')
  })
})
