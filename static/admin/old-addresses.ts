// The dashboard used to draw its views from the address's hash (#/files/…, #/share/…, #/apps); a bookmark
// of one still lands on /.admin/, and goes on to the page that shows the same thing now.

import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'

const PAGES: Record<string, string> = {
  '/apps': ADMIN_PATHS.sessions,
  '/live-updates': ADMIN_PATHS.liveUpdates,
  '/grants': ADMIN_PATHS.grantsPage,
  '/keys': ADMIN_PATHS.keysPage,
  '/profile': ADMIN_PATHS.profile,
  '/backup': ADMIN_PATHS.backup,
  '/status': ADMIN_PATHS.status,
}

export function followOldAddress(): void {
  const hash = location.hash.slice(1)
  if (location.pathname !== ADMIN_PATHS.dashboard || !hash.startsWith('/')) return
  // The hash kept the pod path percent-encoded, as the pages' `path` parameter wants it
  const folder = /^\/(files|share)(\/.*)$/.exec(hash)
  const to = folder ? `${folder[1] === 'files' ? ADMIN_PATHS.files : ADMIN_PATHS.share}?path=${encodeURIComponent(folder[2]!)}` : PAGES[hash]
  if (to) location.replace(to)
}
