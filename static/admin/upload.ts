// Upload: files chosen or dropped, one PUT each with a progress bar (a resumable upload for large ones); each file's outcome is reported,
// and a file declined or refused never stops the others nor hides what did land.

import { ApiError, BASE, putWithProgress } from './api.ts'
import { putResumably, RESUMABLE_FROM } from './resumable-upload.ts'
import { confirmAction, formatBytes, h, say, sayError } from './dom.ts'

type Outcome = { name: string; uploaded: true } | { name: string; uploaded: false; failed: boolean; why: string }

const describe = (o: Outcome) => (o.uploaded ? `Uploaded ${o.name}` : `${o.name} was not uploaded: ${o.why}`)
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** The upload form of the folder `path`; `refresh` redraws its listing once the files are in. */
export function uploadPanel(path: string, refresh: () => Promise<void>): HTMLElement {
  const input = h('input', { type: 'file', id: 'upload-file', multiple: true })
  const progress = h('progress', { id: 'upload-progress', max: '100', value: '0', hidden: true, 'aria-label': 'Upload progress' })
  const note = h('p', { class: 'muted', id: 'upload-note' })
  const report = h('ul', { id: 'upload-report', class: 'plain' })

  const uploadOne = async (file: File): Promise<Outcome> => {
    progress.hidden = false
    progress.value = 0
    note.textContent = `Uploading ${file.name}…`
    // Large files resume after a network error instead of starting again (resumable-upload.ts).
    const send = file.size > RESUMABLE_FROM ? putResumably : putWithProgress
    const put = (onlyNew: boolean) => send(BASE + path + encodeURIComponent(file.name), file, file.type || 'application/octet-stream',
      (sent, total) => { progress.value = Math.round((sent / Math.max(total, 1)) * 100); note.textContent = `Uploading ${file.name}: ${formatBytes(sent)} of ${formatBytes(total)}` },
      `Uploading ${file.name}`, onlyNew)
    try {
      try { await put(true) } catch (err) {
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
    let failed = outcomes.some((o) => !o.uploaded && o.failed)
    let head = done.length ? `Uploaded ${done.join(', ')}` : ''
    if (done.length) {
      // The files are on the pod whatever the listing does: a failed redraw must not read as a failed upload
      await refresh().catch((err: unknown) => {
        failed = true
        head += `, but the folder list could not be refreshed (${messageOf(err)}): reload the page to see ${done.length === 1 ? 'it' : 'them'}`
      })
    }
    const text = [head, ...outcomes.filter((o) => !o.uploaded).map(describe)].filter(Boolean).join('; ')
    if (failed) sayError(new Error(text))
    else say(text)
  }

  const drop = h('div', { class: 'drop', id: 'drop-zone' }, 'Drop files here, or choose them below.')
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over') })
  drop.addEventListener('dragleave', () => drop.classList.remove('over'))
  drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer?.files.length) void upload(Array.from(e.dataTransfer.files)) })
  const form = h('form', {}, drop, h('label', { for: 'upload-file' }, 'Files to upload'), input,
    h('div', {}, h('button', { type: 'submit' }, 'Upload')), progress, note, report)
  form.addEventListener('submit', (e) => { e.preventDefault(); if (input.files?.length) void upload(Array.from(input.files)); else sayError(new Error('Choose at least one file to upload')) })
  return h('section', { class: 'panel', 'aria-labelledby': 'upload-h' }, h('h2', { id: 'upload-h' }, 'Upload files'), form)
}
