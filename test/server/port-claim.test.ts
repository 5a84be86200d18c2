// The claim of a --domain pod's https port: the port lock keeps a second pod off even while the port
// itself is free (two pods starting at once would both pass the plain bind), and a taken port is a
// sentence naming it and what to do.

import { describe, expect, test } from 'bun:test'
import { bindOrExplain, claimSharedPort } from '../../src/server/port-claim.ts'
import { UserError } from '../../src/lib/user-error.ts'
import { freePort } from '../free-port.ts'

const refusal = (port: number, why: string) => `cannot listen on 127.0.0.1:${port} (--port): ${why}; stop it, or give this pod another port with --port`

describe('claimSharedPort', () => {
  test('a second claim of a held port is refused before any listener is bound, and succeeds once released', async () => {
    const port = await freePort()
    const held = claimSharedPort('127.0.0.1', port, '--port')
    try {
      expect(() => claimSharedPort('127.0.0.1', port, '--port')).toThrow(new UserError(refusal(port, 'another solopod serves it')))
    } finally {
      held.release()
    }
    claimSharedPort('127.0.0.1', port, '--port').release()
  })

  test('the lock is per port: another port is claimed beside it', async () => {
    const [a, b] = [await freePort(), await freePort()]
    const held = claimSharedPort('127.0.0.1', a, '--port')
    try {
      claimSharedPort('127.0.0.1', b, '--port').release()
    } finally {
      held.release()
    }
  })

  test('a port something listens on is refused, and the lock is not kept', async () => {
    const port = await freePort()
    const other = Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } })
    try {
      expect(() => claimSharedPort('127.0.0.1', port, '--port')).toThrow(new UserError(refusal(port, 'another process listens there')))
    } finally {
      other.stop(true)
    }
    claimSharedPort('127.0.0.1', port, '--port').release()
  })
})

describe('bindOrExplain', () => {
  test('EADDRINUSE becomes the sentence with the flag; other errors pass unchanged', () => {
    const inUse = Object.assign(new Error('in use'), { code: 'EADDRINUSE' })
    expect(() =>
      bindOrExplain('0.0.0.0', 80, '--http-port', () => {
        throw inUse
      }),
    ).toThrow(
      new UserError('cannot listen on 0.0.0.0:80 (--http-port): another process listens there; stop it, or give this pod another port with --http-port'),
    )
    const other = new Error('boom')
    expect(() =>
      bindOrExplain('127.0.0.1', 1, '--port', () => {
        throw other
      }),
    ).toThrow(other)
  })
})
