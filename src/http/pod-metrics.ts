// What the pod counts as it answers: requests by route group and status, their latency, failed sign-ins.
// The request handler and the OP record here; the monitor role renders it with the gauges it reads itself.

import { Counter, Histogram } from '../lib/prometheus.ts'
import { routeGroupOf } from './pod-paths.ts'

/** Seconds; from a cached GET (~0.2 ms) to a slow upload or a remote fetch near its 5 s timeout. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface PodMetrics {
  /** A request arrived (its headers): it is in flight until recordRequest. */
  requestStarted(): void
  /** One finished request: its path (reduced to its route group: a bounded label), status and seconds. */
  recordRequest(path: string | undefined, status: number, seconds: number): void
  /** A wrong owner password at the login page. */
  recordLoginFailure(): void
  render(): string
}

export function makePodMetrics(): PodMetrics {
  const requests = new Counter('solopod_http_requests_total', 'Requests answered, by route group and status.')
  const latency = new Histogram(
    'solopod_http_request_duration_seconds',
    'Time from a request to its answer (headers; a streamed body may go on), by route group.',
    LATENCY_BUCKETS,
  )
  const loginFailures = new Counter('solopod_login_failures_total', 'Sign-ins refused for a wrong owner password.')
  let inFlight = 0
  return {
    requestStarted: () => {
      inFlight++
    },
    recordRequest(path, status, seconds) {
      inFlight--
      const group = path === undefined ? 'malformed' : routeGroupOf(path)
      requests.inc({ group, status: String(status) })
      latency.observe({ group }, seconds)
    },
    recordLoginFailure: () => loginFailures.inc(),
    render: () =>
      requests.render() +
      latency.render() +
      loginFailures.render() +
      `# HELP solopod_http_requests_in_flight Requests being answered now (this one included).\n# TYPE solopod_http_requests_in_flight gauge\nsolopod_http_requests_in_flight ${inFlight}\n`,
  }
}
