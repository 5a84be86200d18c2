// Issue 36: versions and the trash together hold at most a share of the disk; past it the oldest versions go first.

import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { getMeta, writeResource } from '../../src/store/resources.ts'
import { readVersionSpans } from '../../src/store/versions.ts'
import { isHeldByVersion, type VersionRecord } from '../../src/store/version-record.ts'
import { capVersions } from '../../src/store/version-cap.ts'
import { moveResource } from '../../src/store/move-resource.ts'
import { sweepVersionsRegularly } from '../../src/store/version-sweep.ts'
import { readTrash, trashResource } from '../../src/store/trash.ts'
import type { CapResult } from '../../src/store/version-cap.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { binaryContent, storedBytes } from './binary-content.ts'

const MIN = 60_000
const DAY = 24 * 60 * MIN
const T0 = Date.UTC(2026, 0, 1)
const BASE = 'http://localhost:3996'
const KB = 'x'.repeat(1000)

async function allVersions(store: Store): Promise<VersionRecord[]> {
  const out: VersionRecord[] = []
  for await (const [, r] of store.versions.iterator()) out.push(r)
  return out
}

describe('the disk share of versions and the trash', () => {
  let dir: string
  let store: Store
  let t: number
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'solopod-version-cap-'))
    store = await openStore(dir, { keepVersions: true })
    t = T0
    await writeTurtle(store, BASE, '/', '', t)
    // Ten states of a 1000-byte file, a minute apart: nine versions, 9000 bytes only they hold.
    for (let i = 0; i < 10; i++) await writeResource(store, BASE, '/f.bin', await binaryContent(store, 'application/octet-stream', `${i}${KB}`), (t += MIN))
  })
  afterEach(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** One sweep through the pod's own timer, with a fake filesystem size and a fake clock. */
  const sweepOnce = async (fsBytes: number, percent: number, now: number) => {
    let capped: CapResult | undefined
    const stop = sweepVersionsRegularly(store, { now: () => now, keepDays: 30, share: { percent, fsBytes: () => fsBytes }, onCapped: r => (capped = r) })
    await stop()
    return capped
  }

  test('over the share: the oldest versions go first, the newest are kept, the current state is untouched', async () => {
    const spans = await readVersionSpans(store, '/f.bin')
    expect(spans.length).toBe(9)
    const current = (await getMeta(store, '/f.bin'))!
    // 20 % of 20 100 bytes: 4020, so five of the nine 1001-byte versions must go (four left: 4004).
    const capped = await sweepOnce(20_100, 20, t + 10 * MIN)
    expect(capped).toEqual({ versions: 5, trashItems: 0, bytes: 5 * 1001, heldBytes: 9 * 1001 })
    const left = await readVersionSpans(store, '/f.bin')
    expect(left).toEqual(spans.slice(5))
    expect(new TextDecoder().decode(await storedBytes(store, '/f.bin'))).toBe(`9${KB}`)
    expect((await getMeta(store, '/f.bin'))!.blob).toBe(current.blob)
    // A second sweep finds it under the share.
    expect(await sweepOnce(20_100, 20, t + 20 * MIN)).toBeUndefined()
  })

  test('under the share nothing goes; 0 is no cap', async () => {
    expect(await sweepOnce(100_000, 20, t + 10 * MIN)).toBeUndefined()
    expect(await sweepOnce(1000, 0, t + 10 * MIN)).toBeUndefined()
    expect((await readVersionSpans(store, '/f.bin')).length).toBe(9)
    expect(await capVersions(store, t, 9 * 1001)).toEqual({ versions: 0, trashItems: 0, bytes: 0, heldBytes: 9 * 1001 })
  })

  test('RDF versions count their size; a file a resource names (a moved file) is not counted', async () => {
    for (let i = 0; i < 3; i++) await writeTurtle(store, BASE, '/doc.ttl', `<#a> <#b> "${i}${KB}".`, (t += MIN))
    const rdf = (await allVersions(store)).filter(r => r.meta.blob === undefined)
    expect(rdf.length).toBeGreaterThanOrEqual(2)
    const rdfBytes = rdf.reduce((n, r) => n + r.meta.size, 0)
    expect(rdfBytes).toBeGreaterThan(2000)
    expect((await capVersions(store, t, 0)).heldBytes).toBe(9 * 1001 + rdfBytes)
    // The move keeps /f.bin's last state as a version, but /g.bin names its file: still 9 * 1001 in files.
    await moveResource(store, BASE, '/f.bin', '/g.bin', (t += MIN))
    expect((await readVersionSpans(store, '/f.bin')).length).toBe(10)
    expect((await capVersions(store, t, 0)).heldBytes).toBe(9 * 1001 + rdfBytes)
  })

  test('still over once no version is left: trash items past their first day go, oldest first; a newer one stays', async () => {
    await writeResource(store, BASE, '/old.bin', await binaryContent(store, 'application/octet-stream', KB), (t += MIN))
    await writeResource(store, BASE, '/new.bin', await binaryContent(store, 'application/octet-stream', KB), (t += MIN))
    await trashResource(store, BASE, '/old.bin', (t += MIN))
    await trashResource(store, BASE, '/new.bin', t + 2 * DAY)
    const oldBlob = (await allVersions(store)).find(r => r.meta.size === 1000)?.meta.blob
    expect(oldBlob).toBeDefined()
    // 1 % of 100 000: 1000 bytes. Every version goes (those thinning left), then the day-old trash item; the fresh one stays.
    const capped = await sweepOnce(100_000, 1, t + 2 * DAY + 12 * 60 * MIN)
    expect(capped?.trashItems).toBe(1)
    expect(capped?.versions).toBeGreaterThan(0)
    expect(await allVersions(store)).toEqual([])
    expect((await readTrash(store)).map(i => i.path)).toEqual(['/new.bin'])
    expect(await readVersionSpans(store, '/f.bin')).toEqual([])
    expect(await isHeldByVersion(store.versionBlobs, oldBlob!)).toBe(false)
    expect(new TextDecoder().decode(await storedBytes(store, '/f.bin'))).toBe(`9${KB}`)
  })
})
