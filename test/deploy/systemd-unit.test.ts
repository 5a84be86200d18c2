// deploy/solopod.service: systemd accepts it (`systemd-analyze verify`, where systemd is installed), it is
// sandboxed as docs/hosting.md says, and the documentation's three install commands put the files where it expects them.

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { documentation } from '../documentation.ts'

const ROOT = join(import.meta.dir, '..', '..')
const UNIT = readFileSync(join(ROOT, 'deploy', 'solopod.service'), 'utf8')
const DOCUMENTATION = documentation()
const hasSystemd = Bun.which('systemd-analyze') !== null
const work = mkdtempSync(join(tmpdir(), 'solopod-unit-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The documentation's "Run it as a service" commands (docs/hosting.md), as written there (test/readme-commands.test.ts checks they are). */
const INSTALL_COMMANDS = [
  'npm run build && sudo install -m 755 dist/solopod /usr/local/bin/solopod && sudo install -m 644 deploy/solopod.service /etc/systemd/system/',
  "printf 'SOLOPOD_DOMAIN=pod.example\\nSOLOPOD_ACME_EMAIL=me@example.org\\n' | sudo tee /etc/solopod.env",
  'sudo systemctl daemon-reload && sudo systemctl enable --now solopod',
]

/** `Key=value` lines of the unit (the last one of a key wins, as in systemd). */
const settings = new Map(
  UNIT.split('\n')
    .filter(l => /^\w+=/.test(l))
    .map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
)

describe('deploy/solopod.service', () => {
  test.skipIf(!hasSystemd)('systemd-analyze verify passes, without a warning', () => {
    // verify checks that ExecStart is an executable file: here a stand-in, at a path of the test's own
    const binary = join(work, 'solopod')
    writeFileSync(binary, '#!/bin/sh\n')
    chmodSync(binary, 0o755)
    const unit = join(work, 'solopod.service')
    writeFileSync(unit, UNIT.replace('ExecStart=/usr/local/bin/solopod', `ExecStart=${binary}`))
    const run = Bun.spawnSync(['systemd-analyze', 'verify', unit], { stdout: 'pipe', stderr: 'pipe' })
    expect({ code: run.exitCode, stderr: run.stderr.toString(), stdout: run.stdout.toString() }).toEqual({ code: 0, stderr: '', stdout: '' })
  })

  test('sandboxed: its own user, a read-only system, no new privileges, the data directory the one writable path', () => {
    expect(settings.get('DynamicUser')).toBe('yes')
    expect(settings.get('ProtectSystem')).toBe('strict')
    expect(settings.get('ProtectHome')).toBe('yes')
    expect(settings.get('NoNewPrivileges')).toBe('yes')
    expect(settings.get('StateDirectory')).toBe('solopod')
    expect(settings.get('Environment')).toBe('SOLOPOD_DATA=/var/lib/solopod')
    expect(settings.has('ReadWritePaths')).toBe(false)
    // ports 80 and 443 through the one capability, which is all it may ever hold
    expect(settings.get('AmbientCapabilities')).toBe('CAP_NET_BIND_SERVICE')
    expect(settings.get('CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE')
  })

  test('the documentation installs the executable, the unit and the settings where the unit looks for them', () => {
    for (const command of INSTALL_COMMANDS) expect(DOCUMENTATION).toContain(command)
    expect(INSTALL_COMMANDS[0]).toContain(settings.get('ExecStart')!.split(' ')[0]!)
    expect(INSTALL_COMMANDS[1]).toContain(`sudo tee ${settings.get('EnvironmentFile')}`)
    expect(INSTALL_COMMANDS[2]).toContain('enable --now solopod')
  })
})
