// The Files page's upload form, enhanced: files chosen or dropped go up one PUT each with a progress bar (a
// resumable upload for large ones, resumable-upload.ts); a name already taken gets the next numbered name
// (`photo (2).jpg`) unless "Replace" is ticked. Each file's outcome is reported, and a file refused never stops
// the others nor hides what did land. Once something landed the page is loaded again with its one-line notice
// (lib/upload-notice.ts), so the listing is the pod's own.

import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { ApiError, BASE, putWithProgress } from './api.ts'
import { putResumably, RESUMABLE_FROM } from './resumable-upload.ts'
import { formatBytes, h, say, sayError } from './dom.ts'
import { NUMBERED_NAMES_TRIED, numberedName } from '../../src/lib/numbered-name.ts'
import { uploadedQuery } from '../../src/lib/upload-notice.ts'

type Outcome = { name: string; uploaded: true; as: string; bytes: number } | { name: string; uploaded: false; why: string }

const describe = (o: Outcome) => (o.uploaded ? `Uploaded ${o.name}${o.as === o.name ? '' : ` as ${o.as}`}` : `${o.name} was not uploaded: ${o.why}`)
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
    const put = (name: string, onlyNew: boolean) =>
      send(
        BASE + path + encodeURIComponent(name),
        file,
        file.type || 'application/octet-stream',
        (sent, total) => {
          progress.value = Math.round((sent / Math.max(total, 1)) * 100)
          note.textContent = `Uploading ${file.name}: ${formatBytes(sent)} of ${formatBytes(total)}`
        },
        `Uploading ${file.name}`,
        onlyNew,
      )
    try {
      if (replaceBox?.checked === true) {
        await put(file.name, false)
        return { name: file.name, uploaded: true, as: file.name, bytes: file.size }
      }
      // A file of that name exists (412 to If-None-Match: *): keep it, and name the new one as the pod's own forms do
      for (let n = 1; n <= NUMBERED_NAMES_TRIED; n++) {
        const name = numberedName(file.name, n)
        try {
          await put(name, true)
          return { name: file.name, uploaded: true, as: name, bytes: file.size }
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 412) throw err
        }
      }
      throw new Error(`"${file.name}" and its numbered names already exist here`)
    } catch (err) {
      note.textContent = ''
      return { name: file.name, uploaded: false, why: messageOf(err) }
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
    const done = outcomes.filter(o => o.uploaded)
    const text = outcomes.map(describe).join('; ')
    if (outcomes.some(o => !o.uploaded)) sayError(new Error(text))
    else say(text)
    // The listing is the pod's page: load it again, with the one line of what landed (what did not stays said above until then)
    if (done.length > 0 && done.length === outcomes.length) {
      const query = uploadedQuery({
        names: done.map(o => o.as),
        bytes: done.reduce((sum, o) => sum + o.bytes, 0),
        renamed: done.filter(o => o.as !== o.name).length,
      })
      location.assign(`${BASE}${ADMIN_PATHS.files}?path=${encodeURIComponent(path)}&${query}`)
    } else if (done.length > 0) {
      report.append(h('li', {}, h('a', { href: `${BASE}${ADMIN_PATHS.files}?path=${encodeURIComponent(path)}` }, 'Show the folder with the new files')))
    }
  }

  // Drop files onto the listing or the Upload files section
  const zones = [form.closest('section') ?? form, document.getElementById('selection')].filter((z): z is HTMLElement => z !== null)
  const drop = h('p', { class: 'drop', id: 'drop-zone' }, 'Drop files here or on the list, or choose them below.')
  form.prepend(drop)
  for (const zone of zones) {
    zone.addEventListener('dragover', e => {
      if (e.dataTransfer?.types.includes('Files')) {
        e.preventDefault()
        drop.classList.add('over')
      }
    })
    zone.addEventListener('dragleave', () => drop.classList.remove('over'))
    zone.addEventListener('drop', e => {
      if (!e.dataTransfer?.files.length) return
      e.preventDefault()
      drop.classList.remove('over')
      void upload(Array.from(e.dataTransfer.files))
    })
  }
  form.addEventListener('submit', e => {
    e.preventDefault()
    if (input.files?.length) void upload(Array.from(input.files))
    else sayError(new Error('Choose at least one file to upload'))
  })
}
