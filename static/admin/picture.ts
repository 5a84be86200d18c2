// The owner's picture from a file (Profile view): POST /.admin/api/profile/picture stores it where anyone may
// read it, links it from the WebID, and the header shows it at once.

import { ApiError, CSRF } from './api.ts'
import { h, say, sayError } from './dom.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'

/** `after`: draws the profile again, so its picture and fields show what was saved. */
export function picturePanel(after: () => Promise<void>): HTMLElement {
  const input = h('input', { type: 'file', id: 'picture-file', accept: 'image/png,image/jpeg,image/gif,image/webp' })
  const form = h('form', {}, h('label', { for: 'picture-file' }, 'Picture file (PNG, JPEG, GIF or WebP; anyone may see it)'), input, h('button', { type: 'submit' }, 'Upload picture'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const file = input.files?.[0]
    if (!file) { sayError(new ApiError(400, 'no_file', 'Choose an image file for your picture')); return }
    void upload(file).then(async (url) => {
      showInHeader(url)
      await after()
      say('Picture saved')
    }, sayError)
  })
  return h('section', { class: 'panel', 'aria-labelledby': 'picture-h' }, h('h2', { id: 'picture-h' }, 'Picture'), form)
}

async function upload(file: File): Promise<string> {
  // api() sends JSON; the image goes as it is, its type as Content-Type
  const res = await fetch(ADMIN_PATHS.api + '/profile/picture', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': CSRF, 'content-type': file.type || 'application/octet-stream' }, body: file })
  if (!res.ok) {
    const j = await res.json().catch(() => ({})) as { error?: string; error_description?: string }
    throw new ApiError(res.status, j.error ?? `http_${res.status}`, `Uploading your picture failed (${res.status} ${j.error ?? ''}): ${j.error_description ?? res.statusText}`)
  }
  return (await res.json() as { picture: string }).picture
}

/** The header's picture, added if the profile had none (a fresh URL each time: the file's address stays the same). */
export function showInHeader(url: string): void {
  const who = document.querySelector('.dash-who')
  if (!who) return
  let img = document.getElementById('who-picture') as HTMLImageElement | null
  if (!img) { img = h('img', { class: 'avatar-small', id: 'who-picture', alt: '', referrerpolicy: 'no-referrer' }); who.prepend(img) }
  img.src = `${url}?v=${Date.now()}`
}
