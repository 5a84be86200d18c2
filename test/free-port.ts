// A loopback port free at the moment of asking: for tests that bind sockets themselves, without a pod.

export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
