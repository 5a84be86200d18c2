// The Files page's upload form, enhanced: files chosen or dropped go up one PUT each with a progress bar (a
// resumable upload for large ones, resumable-upload.ts); a name already taken asks before it replaces. Each
// file's outcome is reported, and a file declined or refused never stops the others nor hides what did land.
// Once something landed the page is loaded again with its notice, so the listing is the pod's own.

import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { ApiError, BASE, putWithProgress } from './api.ts'
import { putResumably, RESUMABLE_FROM } from './resumable-upload.ts'
import { confirmAction, formatBytes, h, say, sayError } from './dom.ts'

type Outcome = { name: string; uploaded: true } | { name: string; uploaded: false; failed: boolean; why: string }

const describe = (o: Outcome) => (o.uploaded ? `Uploaded ${o.name}` : `${o.name} was not uploaded: ${o.why}`)
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** `form`: the page's multipart upload form (hidden `path`, `replace` box, file input). */
export function enhanceUpload(form: HTMLElement): void {
  if (!(form instanceof HTMLFormElement)) return
  const path = (form.elements.namedItem('path') as HTMLInputElement).value
  const input = form.querySelector<HTMLInputElement>('input[type=file]')!
  const replaceBox = form.querySelector<HTMLInputElement>('input[name=replace]')
  const progress = h('progress', { id: 'upload-progress', max: '100', value: '0', hidden: true, 'aria-label': 'Upload progress' })
  const note = h('p', { class: 'muted', id: 'upload-note' })
  const report = h('ul', { id: 'upload-report', class: 'plain' })
  form.append(progress, note, report)

  const uploadOne = async (file: File): Promise<Outcome> => {
    progress.hidden = false
    progress.value = 0
    note.textContent = `Uploading ${file.name}…`
    const send = file.size > RESUMABLE_FROM ? putResumably : putWithProgress
    const put = (onlyNew: boolean) => send(BASE + path + encodeURIComponent(file.name), file, file.type || 'application/octet-stream',
      (sent, total) => { progress.value = Math.round((sent / Math.max(total, 1)) * 100); note.textContent = `Uploading ${file.name}: ${formatBytes(sent)} of ${formatBytes(total)}` },
      `Uploading ${file.name}`, onlyNew)
    try {
      try { await put(replaceBox?.checked !== true) } catch (err) {
        // A file of that name exists: replacing it destroys the old one, so ask first
        if (!(err instanceof ApiError) || err.status !== 412) throw err
        if (!confirmAction(`"${file.name}" already exists here. Replace it? The old file cannot be recovered.`)) {
          progress.hidden = true
          note.textContent = ''
          return { name: file.name, uploaded: false, failed: false, why: 'a file of that name exists' }
        }
        await put(false)
      }
      return { name: file.name, uploaded: true }
    } catch (err) {
      note.textContent = ''
      return { name: file.name, uploaded: false, failed: true, why: messageOf(err) }
    }
  }

  const upload = async (files: File[]) => {
    report.replaceChildren()
    const outcomes: Outcome[] = []
    for (const file of files) {
      const outcome = await uploadOne(file)
      outcomes.push(outcome)
      report.append(h('li', {}, describe(outcome)))
    }
    const done = outcomes.filter((o) => o.uploaded).map((o) => o.name)
    const text = outcomes.map(describe).join('; ')
    if (outcomes.some((o) => !o.uploaded && o.failed)) sayError(new Error(text))
    else say(text)
    // The listing is the pod's page: load it again, with the notice of what landed (what did not stays said above until then)
    if (done.length > 0 && done.length === outcomes.length) {
      location.assign(`${BASE}${ADMIN_PATHS.files}?path=${encodeURIComponent(path)}&done=upload&name=${encodeURIComponent(done.join(', '))}`)
    } else if (done.length > 0) {
      report.append(h('li', {}, h('a', { href: `${BASE}${ADMIN_PATHS.files}?path=${encodeURIComponent(path)}` }, 'Show the folder with the new files')))
    }
  }

  // Drop files onto the listing or the Upload files section
  const zones = [form.closest('section') ?? form, document.getElementById('selection')].filter((z): z is HTMLElement => z !== null)
  const drop = h('p', { class: 'drop', id: 'drop-zone' }, 'Drop files here or on the list, or choose them below.')
  form.prepend(drop)
  for (const zone of zones) {
    zone.addEventListener('dragover', (e) => { if (e.dataTransfer?.types.includes('Files')) { e.preventDefault(); drop.classList.add('over') } })
    zone.addEventListener('dragleave', () => drop.classList.remove('over'))
    zone.addEventListener('drop', (e) => {
      if (!e.dataTransfer?.files.length) return
      e.preventDefault()
      drop.classList.remove('over')
      void upload(Array.from(e.dataTransfer.files))
    })
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    if (input.files?.length) void upload(Array.from(input.files))
    else sayError(new Error('Choose at least one file to upload'))
  })
}
