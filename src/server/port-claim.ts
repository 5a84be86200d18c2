// How a pod keeps its port to itself: no second pod and no other program may serve it alongside.
//
// Linux lets a socket bound with SO_REUSEPORT join any listening socket of the same port, address and
// user that set SO_REUSEPORT too (socket(7)); the kernel then spreads new connections over both, so a
// second pod would answer about half of the requests, writes included, from another data directory.
// A bind without SO_REUSEPORT fails with EADDRINUSE while anything is bound there, and makes any later
// bind on that port fail the same way, SO_REUSEPORT or not. So:
// - every listener of the pod binds without SO_REUSEPORT (server/listen.ts says it to Bun explicitly:
//   Bun sets it by default outside development mode), except the https listener of --domain;
// - that one needs it, for a renewed certificate goes on a second listener that binds the same port
//   before the first stops (server/acme-listener.ts). It is guarded twice: a plain bind first proves that
//   nothing listens there yet (a program that itself set SO_REUSEPORT included), and the port lock below
//   keeps every other solopod off for as long as the pod runs, the swaps included: another pod's plain
//   bind fails anyway while one of the listeners is bound (the new one binds before the old one stops),
//   and another --domain pod's own SO_REUSEPORT listener would not be refused by the kernel, so it asks
//   the lock first and is refused there.
// What the kernel still admits is a program of the same user that sets SO_REUSEPORT itself and binds
// while the https listener runs; run the pod as a user of its own (deploy/solopod.service) and nothing
// else can: a socket of another user never joins.

import { UserError } from '../lib/user-error.ts'

export interface PortLock {
  release(): void
}

/**
 * Binds (`bind` does it) and turns the two refusals an operator can fix into what to do: a port below
 * 1024 without the capability, and a port something already serves.
 */
export function bindOrExplain<T>(host: string, port: number, flag: string, bind: () => T): T {
  try {
    return bind()
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'EACCES')
      throw new UserError(
        `cannot listen on ${host}:${port} (${flag}): ports below 1024 need the capability CAP_NET_BIND_SERVICE; see docs/hosting.md, "Ports 80 and 443"`,
        { cause: err },
      )
    if (code === 'EADDRINUSE') throw portTaken(host, port, flag, 'another process listens there', err)
    throw err
  }
}

const portTaken = (host: string, port: number, flag: string, why: string, cause: unknown) =>
  new UserError(`cannot listen on ${host}:${port} (${flag}): ${why}; stop it, or give this pod another port with ${flag}`, { cause })

/**
 * The https port of a --domain pod, before its SO_REUSEPORT listener: the port lock, then a plain bind
 * that must succeed (it is closed at once; the lock keeps other pods off until the listener is bound).
 * Returns the lock, held until the pod stops listening.
 */
export function claimSharedPort(host: string, port: number, flag: string): PortLock {
  const lock = lockPort(host, port, flag)
  try {
    refuseTakenPort(host, port, flag)
  } catch (err) {
    lock.release()
    throw err
  }
  return lock
}

/** A plain bind, closed at once: throws the sentence for the operator when anything listens on the port. */
export function refuseTakenPort(host: string, port: number, flag: string): void {
  bindOrExplain(host, port, flag, () => Bun.listen({ hostname: host, port, exclusive: true, socket: { data() {} } })).stop(true)
}

/**
 * One listening socket in Linux's abstract namespace per user, host and port (unix(7)): binding it is
 * atomic, a second bind of the name fails with EADDRINUSE, and the kernel frees it when the process
 * ends, a crash or SIGKILL included, so no stale lock is ever left (a file would be). The user is in the
 * name because only sockets of one user can share a port, and another user cannot block the name. On
 * other systems, without the abstract namespace, the plain bind alone guards the start.
 */
function lockPort(host: string, port: number, flag: string): PortLock {
  if (process.platform !== 'linux') return { release() {} }
  const name = `\0solopod/port/${process.getuid?.() ?? 0}/${host}:${port}`
  try {
    const held = Bun.listen({ unix: name, socket: { data() {} } })
    return { release: () => held.stop(true) }
  } catch (err) {
    if ((err as { code?: string }).code === 'EADDRINUSE') throw portTaken(host, port, flag, 'another solopod serves it', err)
    throw err
  }
}
