// The SolidOS data browser as docs/apps.md's recipe serves it: mashlib's dist/ (the npm package's static build) as
// plain files on an origin of its own, where browse.html?uri=… browses any pod.

import { existsSync } from 'node:fs'
import { join, normalize } from 'node:path'

export const MASHLIB_DIST = join(import.meta.dir, '..', '..', 'node_modules', 'mashlib', 'dist')

/** A static server of mashlib's dist/ on 127.0.0.1 (a free port); nothing outside the folder is served. */
export function serveMashlib(): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const file = normalize(join(MASHLIB_DIST, decodeURIComponent(new URL(req.url).pathname)))
      return file.startsWith(MASHLIB_DIST) && existsSync(file) ? new Response(Bun.file(file)) : new Response('not here', { status: 404 })
    },
  })
}
