// The pod's ACME account key and certificate travel with export and import (a restored pod serves its
// certificate at once and keeps its CA account); the health check's last write is nobody's data and stays behind.

import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { exportPod, STATE_FILE } from '../../src/store/export-pod.ts'
import { importPod } from '../../src/store/import-pod.ts'
import { probeWritable } from '../../src/store/health-probe.ts'
import { getAccountKey, getStoredCertificate, putAccountKey, putStoredCertificate } from '../../src/acme/acme-records.ts'
import { makeAccountKey } from '../../src/acme/issue-certificate.ts'

const root = mkdtempSync(join(tmpdir(), 'solopod-export-acme-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('export and import carry the ACME account key and the certificate, not the health probe', async () => {
  const accountKey = await makeAccountKey()
  const certificate = { domain: 'pod.example', certPem: '-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n', keyPem: await makeAccountKey() }
  const source = await openStore(join(root, 'source'))
  try {
    await ensureOwner(source, 'https://pod.example', 1_700_000_000_000)
    await putAccountKey(source, accountKey)
    await putStoredCertificate(source, certificate)
    await probeWritable(source, 1_700_000_000_000)
    await exportPod(source, join(root, 'export'))
  } finally {
    await source.close()
  }
  expect(readFileSync(join(root, 'export', STATE_FILE), 'utf8')).not.toContain('health-probe')

  await importPod(join(root, 'imported'), join(root, 'export'), 'https://pod.example')
  const imported = await openStore(join(root, 'imported'))
  try {
    expect(await getAccountKey(imported)).toBe(accountKey)
    expect(await getStoredCertificate(imported)).toEqual(certificate)
  } finally {
    await imported.close()
  }
})
