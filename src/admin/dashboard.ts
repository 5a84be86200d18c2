// /.admin/: the dashboard opens on the owner's files (the Files page at the pod's root), and its one script.

import { bundleVersion, readBundle } from '../http/static-files.ts'

const ENTRY = 'admin/app.ts'

/** Where the owner's pages load the dashboard's script from: its URL with the bundle's version as a query. */
export async function versionedScriptUrl(scriptUrl: string): Promise<string> {
  return `${scriptUrl}?v=${await bundleVersion(ENTRY)}`
}

/**
 * The bundle `bun run build:ui` wrote. Asked for by the current version (the URL the pages name), it is kept by the
 * browser for good: each navigation then runs it from the browser's cache, with no request (measured: the request
 * it made on every page before took 3–37 ms before DOMContentLoaded on the Files page). Asked for without it, or
 * by a version this pod no longer serves, it is `no-cache` with an ETag, so a new version of the pod is picked up at
 * once and an unchanged one costs a 304.
 */
export async function dashboardScript(request: Request): Promise<Response> {
  const [text, version] = await Promise.all([readBundle(ENTRY), bundleVersion(ENTRY)])
  const current = new URL(request.url).searchParams.get('v') === version
  const etag = `"${version}"`
  const headers = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
    'x-content-type-options': 'nosniff',
  }
  if (
    request.headers
      .get('if-none-match')
      ?.split(',')
      .some(tag => tag.trim().replace(/^W\//, '') === etag)
  )
    return new Response(null, { status: 304, headers })
  return new Response(text, { headers })
}
