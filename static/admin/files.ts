// What is left of the old hash-routed Files view: the breadcrumbs the old share view (share.ts) still
// imports. The Files page is the pod's own (src/admin/files-page.ts, enhanced by files-upload.ts and
// files-select.ts); delete this with share.ts.

import { h, readablePath } from './dom.ts'

const fileHref = (path: string) => `#/files${path}`

/** Home / a / b: every ancestor a link, the current one marked. */
export function breadcrumbs(path: string): HTMLElement {
  const parts = path.split('/').filter((p) => p !== '')
  const items = [h('li', {}, h('a', { href: fileHref('/') }, 'Home'))]
  let at = '/'
  parts.forEach((p, i) => {
    const last = i === parts.length - 1
    at += p + (last && !path.endsWith('/') ? '' : '/')
    items.push(h('li', {}, last ? h('span', { 'aria-current': 'page' }, readablePath(p)) : h('a', { href: fileHref(at) }, readablePath(p))))
  })
  return h('nav', { 'aria-label': 'Breadcrumbs' }, h('ol', { class: 'crumbs' }, items))
}
