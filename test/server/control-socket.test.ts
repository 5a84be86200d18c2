// The owner-only control socket: a failing action gets a plain JSON 500, never Bun's development page.

import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ControlSocketError, controlSocketPath, openControlSocket, requestSetupLink } from '../../src/server/control-socket.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

test('an action that throws answers 500 with its message as JSON, with no source code or paths', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-ctl-'))
  dirs.push(dir)
  const close = openControlSocket(dir, {
    issueSetupLink: async () => {
      throw new Error('the database is closed')
    },
    exportTo: async () => ({}),
  })
  try {
    const res = await fetch('http://solopod/setup-link', { method: 'POST', unix: controlSocketPath(dir) })
    const body = await res.text()
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 500, type: 'application/json;charset=utf-8' })
    expect(JSON.parse(body)).toEqual({ error: 'the database is closed' })
    expect(body).not.toContain('control-socket.ts')
    expect(await requestSetupLink(dir).catch((e: unknown) => e)).toBeInstanceOf(ControlSocketError)
  } finally {
    close()
  }
})
