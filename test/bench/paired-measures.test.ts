// The benches' paired measures (issue 41): the aim is judged on the median of the rounds' ratios, each round's
// pair printed, and the measure before still printed beside it.

import { describe, expect, test } from 'bun:test'
import { formatNotifications, type NotificationsResult, type PairedPutRound } from './notifications.ts'
import { formatLargeFiles, type LargeFilesResult, type PairedDownload, type PairedUpload } from './large-files.ts'
import type { LoadResult } from './load.ts'
import { formatCeilingPaired } from './public-ceiling-paired.ts'

const load = (rps: number): LoadResult => ({ requests: rps, failures: 0, seconds: 1, rps, p50Ms: 10, p99Ms: 20 })

const round = (heardRps: number, quietRps: number): PairedPutRound => ({ heardRps, quietRps, heardCpuMs: 0.5, quietCpuMs: 0.4, listenersCpuMs: 0.05 })

function notifications(paired: PairedPutRound[]): NotificationsResult {
  return {
    latency: [],
    idleRssMb: 60,
    manyRssMb: 100,
    openManyS: 1,
    // the measure before, one best run each way: 0.50× alone
    putNone: load(1000),
    putListening: load(400),
    cpuPerPutNoneMs: 0.4,
    cpuPerPutListeningMs: 0.5,
    putListeningApart: load(500),
    cpuPerPutListeningApartMs: 0.5,
    listenersCpuPerPutMs: 0.05,
    deliveredApart: 10,
    expectedApart: 10,
    delivered: 10,
    expected: 10,
    paired,
    pairedDelivered: 20,
    pairedExpected: 20,
    misread: 0,
  }
}

describe('the paired PUT-with-subscribers measure', () => {
  test('judges the aim on the median of the rounds’ ratios and keeps the line before', () => {
    // ratios 0.50, 0.85, 0.90, 0.95, 2.00: median 0.90, where the mean (1.04) or the best arms (200 against 100) differ
    const lines = formatNotifications(notifications([round(50, 100), round(85, 100), round(200, 100), round(90, 100), round(95, 100)]))
    const paired = lines.find(l => l.includes('rounds in turn'))!
    expect(paired).toContain('ratios 0.50, 0.85, 2.00, 0.90, 0.95, median 0.90× (aim ≥ 0.8×: met)')
    expect(paired).toContain('20 of 20 notifications arrived')
    expect(lines.find(l => l.includes('listening in another process'))).toContain('0.50× (aim ≥ 0.8×: not met)')
    expect(lines.some(l => l.includes("the paired rounds' CPU per PUT"))).toBe(true)
  })

  test('a median under the aim is not met, whatever the best round', () => {
    const lines = formatNotifications(notifications([round(70, 100), round(300, 100), round(75, 100), round(60, 100)]))
    // four rounds: the median is the mean of the middle two, 0.70 and 0.75
    expect(lines.find(l => l.includes('rounds in turn'))).toContain('median 0.72× (aim ≥ 0.8×: not met)')
  })
})

function largeFiles(pairedDownload: PairedDownload[], pairedUpload: PairedUpload[] = []): LargeFilesResult {
  return {
    mib: 256,
    uploadMbps: 100,
    writeMbps: 200,
    // the measure before: 0.50×
    downloadMbps: 300,
    readMbps: 600,
    warmDownloadMbps: 700,
    warmReadMbps: 3000,
    fetchUploadMbps: 50,
    fetchDownloadMbps: 250,
    idleRssMb: 60,
    uploadPeakRssMb: 80,
    bareUploadMbps: 150,
    bareDownloadMbps: 300,
    cpuMsPerMib: { podUpload: 2, bareUpload: 1.5, sha256: 0.6, podDownload: 0.12, bareDownload: 0.15, curlDownload: 1.2, fetchDownload: 1.5 },
    pairedDownload,
    pairedUpload,
  }
}

describe('the paired large-file download measure', () => {
  test('judges the aim on the median of the rounds’ ratios and keeps the line before', () => {
    const pair = (podMbps: number, streamMbps: number): PairedDownload => ({ podMbps, streamMbps, podCpuMs: 0.12, bareMbps: podMbps })
    const lines = formatLargeFiles(largeFiles([pair(400, 1000), pair(900, 1000), pair(820, 1000), pair(2000, 1000), pair(850, 1000)]))
    const paired = lines.find(l => l.includes('rounds in turn'))!
    expect(paired).toContain('ratios 0.40, 0.90, 0.82, 2.00, 0.85, median 0.85× (aim ≥ 0.8×: met)')
    expect(paired).toContain('pod median 1.00× of it')
    expect(lines.find(l => l.includes('download from disk 300 MB/s'))).toContain('0.50× (aim ≥ 0.8×: not met)')
  })
})

describe('the paired large-file upload measure', () => {
  test('judges the aim on the median of the rounds’ ratios, prints the loopback ceiling beside it and keeps the line before', () => {
    const round = (podMbps: number, writerMbps: number, drainMbps: number): PairedUpload => ({
      podMbps,
      podCpuMs: 1.9,
      podJsThreadCpuMs: 1.2,
      writerMbps,
      drainMbps,
    })
    const lines = formatLargeFiles(largeFiles([], [round(500, 1000, 800), round(900, 1000, 1000), round(700, 1000, 900)]))
    const paired = lines.find(l => l.includes('alternating rounds'))!
    expect(paired).toContain('ratios 0.50, 0.90, 0.70, median 0.70× (aim ≥ 0.8×: not met)')
    expect(paired).toContain('of it its JS thread 1.20, 1.20, 1.20')
    // the ceiling: 800/1000, 1000/1000, 900/1000 → 0.90; the pod against it: 0.625, 0.9, 0.78 → 0.78
    expect(paired).toContain('median 0.90× of the writer')
    expect(paired).toContain('the pod median 0.78× of it')
    expect(lines.find(l => l.includes('upload 100 MB/s vs Bun file writer'))).toContain('0.50× (aim ≥ 0.8×: not met)')
    expect(lines.some(l => l.includes('rounds in turn'))).toBe(false)
  })
})

test('notifications that were not of the subscriber’s topic are printed', () => {
  const r = { ...notifications([round(90, 100)]), misread: 3 }
  expect(formatNotifications(r).find(l => l.includes('rounds in turn'))).toContain("3 in all the PUT runs were not a notification of the subscriber's topic")
  expect(formatNotifications(notifications([round(90, 100)])).find(l => l.includes('rounds in turn'))).not.toContain('were not a notification')
})

describe('the public GET against its bare ceiling, paired', () => {
  const line = (pairs: [number, number][]) =>
    formatCeilingPaired(
      pairs.map(([podRps, bareRps]) => ({ podRps, bareRps })),
      0.5,
      'public GET',
      'bare',
    )
  test('judges the aim on the median of the rounds’ ratios, each round printed', () => {
    // ratios 0.40, 0.55, 0.60, 0.52, 0.90: median 0.55, where one bad round (0.40) alone would fail it
    expect(
      line([
        [40, 100],
        [55, 100],
        [60, 100],
        [52, 100],
        [90, 100],
      ]),
    ).toBe('public GET / bare, paired: 5 rounds in turn, 40.0%, 55.0%, 60.0%, 52.0%, 90.0%, median 55.0% (aim ≥ 50%: met; the line above is one run each)')
  })
  test('a median under the aim is not met, whatever the best round', () => {
    expect(
      line([
        [45, 100],
        [95, 100],
        [48, 100],
        [30, 100],
        [49, 100],
      ]),
    ).toContain('median 48.0% (aim ≥ 50%: not met')
  })
})
