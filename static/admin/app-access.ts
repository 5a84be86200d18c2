// What an approved app may reach, in the Apps panel: full access, or some folders (read, or read and
// write), changed in place; the pod enforces it from the app's next request.

import { api } from './api.ts'
import { h, readablePath, say, sayError } from './dom.ts'

export interface AppAccess {
  full: boolean
  folders: { path: string; name: string; right: 'read' | 'write' }[]
  summary: string
}

type Right = 'read' | 'write'

/** The cell's content: the summary and a Change button that opens the editor in its place. */
export function accessCell(clientId: string, appName: string, access: AppAccess): HTMLElement {
  const cell = h('div', { class: 'app-access' })
  const show = () => cell.replaceChildren(
    h('span', { class: 'access-summary' }, access.full ? 'Full access' : `Only ${access.folders.map((f) => `${f.name} (${f.right === 'read' ? 'read' : 'read and write'})`).join(', ')}`),
    ' ',
    h('button', { type: 'button', class: 'small secondary', 'aria-label': `Change what ${appName} may reach`, onclick: () => cell.replaceChildren(editor()) }, 'Change'),
  )
  const editor = () => {
    const name = `access-${Math.random().toString(36).slice(2)}`
    const full = h('input', { type: 'radio', name, value: 'full', ...(access.full ? { checked: true } : {}) })
    const limited = h('input', { type: 'radio', name, value: 'folders', ...(access.full ? {} : { checked: true }) })
    const rows = h('ul', { class: 'folder-rows' })
    // `stored`: the folder's path as the pod keeps it, sent back as it is while its readable form is unchanged
    const addRow = (stored: string, right: Right) => {
      const path = readablePath(stored)
      const input = h('input', { type: 'text', value: path, placeholder: 'for example /Recipes/', 'aria-label': 'Folder', autocomplete: 'off', 'data-stored': stored })
      const select = h('select', { 'aria-label': 'Access' }, h('option', { value: 'read', ...(right === 'read' ? { selected: true } : {}) }, 'Read'), h('option', { value: 'write', ...(right === 'write' ? { selected: true } : {}) }, 'Read and write'))
      const row = h('li', {}, input, ' ', select, ' ', h('button', { type: 'button', class: 'small secondary', 'aria-label': `Remove ${path || 'this folder'}`, onclick: () => row.remove() }, 'Remove'))
      input.addEventListener('input', () => { limited.checked = true })
      rows.append(row)
    }
    for (const f of access.folders) addRow(f.path, f.right)
    if (access.folders.length === 0) addRow('', 'write')
    const save = async () => {
      const pathOf = (input: HTMLInputElement) => input.value === readablePath(input.dataset.stored ?? '') ? input.dataset.stored! : input.value
      const folders = [...rows.querySelectorAll('li')].map((li) => ({ path: pathOf(li.querySelector('input')!), right: li.querySelector('select')!.value }))
        .filter((f) => f.path.trim() !== '')
      const body = full.checked ? { full: true } : { folders }
      try {
        access = await api<AppAccess>('PUT', `/apps/access?client_id=${encodeURIComponent(clientId)}`, body, `Changing what ${appName} may reach`)
        show()
        say(`${appName} may now reach ${access.summary}`)
      } catch (err) { sayError(err) }
    }
    return h('fieldset', { class: 'access-editor' },
      h('legend', {}, `What may ${appName} reach?`),
      h('label', {}, full, ' Full access: everything you can reach — read, change and share'),
      h('label', {}, limited, ' Only these folders (never sharing settings):'),
      rows,
      h('p', {}, h('button', { type: 'button', class: 'small secondary', onclick: () => { limited.checked = true; addRow('', 'write') } }, 'Add a folder')),
      h('p', { class: 'muted' }, 'A folder that does not exist yet is made. The change holds from the app\'s next request.'),
      h('button', { type: 'button', class: 'small', onclick: () => { void save() } }, 'Save'), ' ',
      h('button', { type: 'button', class: 'small secondary', onclick: show }, 'Cancel'),
    )
  }
  show()
  return cell
}
