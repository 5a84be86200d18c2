// /.admin/: the dashboard opens on the owner's files (the Files page at the pod's root), and its one script.

import { readBundle } from '../http/static-files.ts'

/** The bundle `bun run build:ui` wrote; `no-cache`, so a new version of the pod is picked up at once. */
export async function dashboardScript(): Promise<Response> {
  return new Response(await readBundle('admin/app.ts'), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
  })
}
