// GET /.well-known/solopod/metrics: the Prometheus text format — what the pod counted as it answered
// (http/pod-metrics.ts) and gauges read now: memory, store, caches, replay memories, certificate.

import { heapStats } from 'bun:jsc'
import type { Deps } from '../deps.ts'
import { PROMETHEUS_TEXT, renderGauge } from '../lib/prometheus.ts'
import { VERSION } from '../lib/version.ts'

type MetricsDeps = Pick<
  Deps,
  'store' | 'metrics' | 'dpopReplay' | 'tokenEndpointReplay' | 'tickets' | 'channels' | 'certificate' | 'diskUsage' | 'startedAt' | 'now'
>

export async function metricsResponse(deps: MetricsDeps): Promise<Response> {
  const { store, certificate } = deps
  const disk = await deps.diskUsage()
  const cert = certificate.current()
  const memory = process.memoryUsage()
  const parts = [
    deps.metrics.render(),
    renderGauge('solopod_build_info', 'The running version (value 1).', [[{ version: VERSION }, 1]]),
    renderGauge('solopod_start_time_seconds', 'When the pod started (Unix time).', [[{}, deps.startedAt / 1000]]),
    renderGauge('solopod_process_resident_memory_bytes', 'Resident set size of the process.', [[{}, memory.rss]]),
    renderGauge('solopod_js_heap_bytes', 'JavaScript heap in use and its size.', [
      [{ kind: 'used' }, heapStats().heapSize],
      [{ kind: 'capacity' }, heapStats().heapCapacity],
    ]),
    renderGauge('solopod_data_directory_bytes', 'Bytes under the data directory (measured at most once a minute).', [[{}, disk.usedBytes]]),
    renderGauge('solopod_store_bytes', 'Bytes of the database (DATA/db).', [[{}, disk.storeBytes]]),
    renderGauge('solopod_disk_free_bytes', "Free space on the data directory's disk, as the pod's user may use it.", [[{}, disk.freeBytes]]),
    // counters kept by the store since it was opened (group-commit.ts)
    `# HELP solopod_store_commit_batches_total Synced write batches (group commits).\n# TYPE solopod_store_commit_batches_total counter\nsolopod_store_commit_batches_total ${store.commitStats.batches}\n`,
    `# HELP solopod_store_commit_writes_total Resource writes the batches held.\n# TYPE solopod_store_commit_writes_total counter\nsolopod_store_commit_writes_total ${store.commitStats.writes}\n`,
    renderGauge('solopod_cache_entries', 'Entries of in-memory caches.', [
      [{ cache: 'resource_metadata' }, store.caches.meta.entries.size],
      [{ cache: 'absent_resources' }, store.caches.meta.absent.size],
    ]),
    renderGauge('solopod_notification_channels', 'Open notification channels.', [[{}, deps.channels.size]]),
    renderGauge('solopod_replay_memory_entries', 'Entries of the replay memories, against their capacity.', [
      [{ memory: 'dpop_jti' }, deps.dpopReplay.size],
      [{ memory: 'token_endpoint_jti' }, deps.tokenEndpointReplay.size],
      [{ memory: 'spent_uma_tickets' }, deps.tickets.spent],
    ]),
    renderGauge(
      'solopod_replay_memory_capacity',
      'Entries each replay memory holds at most (past it, DPoP memories forget the oldest proofs of the fullest key; the spent tickets refuse new ones for a moment).',
      [
        [{ memory: 'dpop_jti' }, deps.dpopReplay.capacity],
        [{ memory: 'token_endpoint_jti' }, deps.tokenEndpointReplay.capacity],
        [{ memory: 'spent_uma_tickets' }, deps.tickets.capacity],
      ],
    ),
    renderGauge(
      'solopod_certificate_expiry_seconds',
      'When the served certificate expires (Unix time); absent without TLS.',
      cert ? [[{ source: cert.source }, cert.info.notAfter / 1000]] : [],
    ),
    renderGauge(
      'solopod_certificate_renewal_failing',
      '1 while the last renewal attempt failed (ACME), else 0.',
      cert?.source === 'acme' ? [[{}, cert.lastFailure ? 1 : 0]] : [],
    ),
  ]
  return new Response(parts.join(''), { headers: { 'content-type': PROMETHEUS_TEXT, 'cache-control': 'no-store' } })
}
