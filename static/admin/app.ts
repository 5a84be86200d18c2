// The owner's dashboard: hash routes (#/files/…, #/share/…, #/apps, #/live-updates, #/grants, #/keys, #/profile, #/backup, #/status) drawn into #view.
// Reads and writes go to the pod's own LDP endpoints and owner API with the login cookie and the
// page's CSRF token (X-CSRF-Token); DOM nodes are built with textContent, never from HTML strings.

import { h, clear, say } from './dom.ts'
import { showFiles } from './files.ts'
import { showShare } from './share.ts'
import { showApps } from './apps.ts'
import { showProfile } from './profile.ts'
import { showGrants } from './grants.ts'
import { showKeys } from './keys.ts'
import { showBackup } from './backup.ts'
import { showLiveUpdates } from './live-updates.ts'
import { showStatus } from './status.ts'
import { mayLeave } from './unsaved.ts'

const view = document.getElementById('view')!

async function route(): Promise<void> {
  // Paths stay as the links carry them, percent-encoded: the pod's own form of a name (a decoded "/a b/" is no pod path)
  const hash = location.hash.slice(1) || '/files/'
  for (const a of document.querySelectorAll<HTMLAnchorElement>('.dash-nav a')) {
    const target = a.getAttribute('href')!.slice(1)
    if (hash.startsWith(target === '/files/' ? '/files/' : target)) a.setAttribute('aria-current', 'page')
    else a.removeAttribute('aria-current')
  }
  say('')
  clear(view)
  view.append(h('p', { class: 'muted' }, 'Loading…'))
  try {
    if (hash.startsWith('/files/')) await showFiles(view, hash.slice('/files'.length))
    else if (hash.startsWith('/share/')) await showShare(view, hash.slice('/share'.length))
    else if (hash === '/apps') await showApps(view)
    else if (hash === '/live-updates') await showLiveUpdates(view)
    else if (hash === '/grants') await showGrants(view)
    else if (hash === '/keys') await showKeys(view)
    else if (hash === '/profile') await showProfile(view)
    else if (hash === '/backup') await showBackup(view)
    else if (hash === '/status') await showStatus(view)
    else { clear(view); view.append(h('p', {}, 'There is no such page here. '), h('a', { href: '#/files/' }, 'Go to your files')) }
  } catch (err) {
    clear(view)
    view.append(h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)))
  }
}

// The dashboard's own views: leaving unsaved work asks first, and staying puts the address back; after
// navigation, focus moves to the new content, so keyboard and screen-reader users start there
let shown = location.hash
window.addEventListener('hashchange', () => {
  if (location.hash === shown) return
  if (!mayLeave()) { history.replaceState(null, '', shown); return }
  shown = location.hash
  void route().then(() => view.focus())
})
void route()
