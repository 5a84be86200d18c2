// Run by npm before `npm test` (the `pretest` script), with plain Node: the whole suite drives Debian's
// Chromium, puts nginx in front of a pod, makes certificates with openssl and a film with ffmpeg, and gets
// certificates from pebble, an ACME CA, and runs litmus, rclone and cadaver against the WebDAV face. A missing one stops the run
// here, in one line naming the packages, instead of minutes later as a failed test. Nothing is installed
// from here: installing system packages is the machine owner's call (.ci/run installs them on CI).
//
// SOLOPOD_TOOLS_ROOT (for this script's own test) is put in front of the absolute paths, so a test can
// point it at a directory that holds some of the tools and not others.

import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

const root = process.env.SOLOPOD_TOOLS_ROOT ?? ''
const executable = (file) => { try { accessSync(file, constants.X_OK); return true } catch { return false } }
const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, name)))

const TOOLS = [
  // test/browser/harness.ts launches this path; no browser is downloaded
  { pkg: 'chromium', where: '/usr/bin/chromium', found: () => executable(`${root}/usr/bin/chromium`) },
  // test/browser/nginx-proxy.ts runs this path as the reverse proxy
  { pkg: 'nginx', where: '/usr/sbin/nginx', found: () => executable(`${root}/usr/sbin/nginx`) },
  // test/e2e/tls-cert.ts and the HTTPS commands of docs/sharing.md call it by name
  { pkg: 'openssl', where: 'on PATH', found: () => root === '' ? onPath('openssl') : executable(`${root}/usr/bin/openssl`) },
  // test/browser/film-seek.test.ts makes the film a <video> seeks in
  { pkg: 'ffmpeg', where: 'on PATH', found: () => root === '' ? onPath('ffmpeg') : executable(`${root}/usr/bin/ffmpeg`) },
  // test/e2e/pebble.ts runs the CA and its DNS server (one Debian package) by name
  { pkg: 'pebble', where: '/usr/bin/pebble', found: () => executable(`${root}/usr/bin/pebble`) && executable(`${root}/usr/bin/pebble-challtestsrv`) },
  // test/e2e/webdav-clients.test.ts and webdav-bulk.test.ts run the WebDAV reference suite and two real clients by name
  ...['litmus', 'rclone', 'cadaver'].map((name) => ({ pkg: name, where: 'on PATH', found: () => root === '' ? onPath(name) : executable(`${root}/usr/bin/${name}`) })),
]

const missing = TOOLS.filter((t) => !t.found())
if (missing.length > 0) {
  const sudo = typeof process.getuid === 'function' && process.getuid() === 0 ? '' : 'sudo '
  const names = missing.map((t) => t.pkg).join(' ')
  console.error(`npm test needs ${missing.map((t) => `${t.pkg} (${t.where})`).join(', ')}: install with \`${sudo}apt-get install -y ${names}\` (Debian, Ubuntu), or run \`npm run test:unit\`, which needs none of them`)
  process.exit(1)
}
