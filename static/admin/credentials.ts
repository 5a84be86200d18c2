// Scripts and bots, a section of the Apps panel: the owner's client credentials (name, id, what each may
// reach, made, last used), making one (its secret shown once, here only) and removing one (/.admin/api/credentials).

import { api } from './api.ts'
import { confirmAction, field, formatDate, h, say, sayError, setFieldError } from './dom.ts'

type Right = 'read' | 'write'
interface Credential { clientId: string; name: string; createdAt: string; lastUsedAt: string | null; folders: { path: string; right: Right }[] | null; access: string }
interface Made extends Credential { clientSecret: string; tokenEndpoint: string }

/** The section, drawn again in place after each change; `made` is shown once, then forgotten. */
export async function scriptsAndBotsSection(made?: Made): Promise<HTMLElement> {
  const list = await api<Credential[]>('GET', '/credentials', undefined, 'Reading client credentials')
  const section: HTMLElement = h('section', { class: 'panel', id: 'scripts-and-bots', 'aria-labelledby': 'scripts-h' },
    h('h2', { id: 'scripts-h' }, 'Scripts and bots'),
    h('p', { class: 'muted' }, 'A client credential lets a script or bot act as you without a browser: it trades its id and secret, with a DPoP proof, for short-lived tokens. ' +
      'Limit it to some folders; without a limit it has full access as you. Removing it makes its tokens refused on their next request.'),
    made ? secretBox(made) : '',
    table(list, (): Promise<void> => redraw(section)),
    newCredentialForm((m) => redraw(section, m)))
  return section
}

const redraw = (section: HTMLElement, made?: Made): Promise<void> => scriptsAndBotsSection(made).then((fresh) => { section.replaceWith(fresh) })

/** The secret, once: copied by hand (or with the button), never shown again. */
function secretBox(m: Made): HTMLElement {
  const text = `client_id=${m.clientId}\nclient_secret=${m.clientSecret}`
  return h('div', { class: 'notice secret-once', role: 'status', id: 'new-credential' },
    h('p', {}, h('strong', {}, `Credential “${m.name}” made. `), 'Copy the secret now: it is shown only this once (the pod keeps only its hash). Keep it like a password.'),
    h('pre', {}, text),
    h('button', { type: 'button', class: 'small', onclick: () => { void navigator.clipboard.writeText(text).then(() => say('Copied'), sayError) } }, 'Copy'),
    h('p', { class: 'muted' }, 'Token endpoint: ', h('code', {}, m.tokenEndpoint), ' (grant_type=client_credentials, HTTP Basic, DPoP). See the README\'s "Scripts and bots".'))
}

function table(list: Credential[], changed: () => Promise<void>): HTMLElement {
  const head = ['Name', 'May reach', 'Made', 'Last used']
  return h('div', { class: 'table-wrap' }, h('table', { class: 'stack', id: 'credentials-table' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')))),
    h('tbody', {}, list.length === 0 ? h('tr', {}, h('td', { colspan: String(head.length + 1), class: 'muted' }, 'No client credentials yet')) : list.map((c) => h('tr', {},
      h('td', { 'data-label': 'Name' }, h('strong', {}, c.name), h('br'), h('code', {}, c.clientId)),
      h('td', { 'data-label': 'May reach', class: 'words' }, c.access),
      h('td', { 'data-label': 'Made' }, formatDate(c.createdAt)),
      h('td', { 'data-label': 'Last used' }, c.lastUsedAt ? formatDate(c.lastUsedAt) : 'never'),
      h('td', {}, h('button', {
        type: 'button', class: 'small secondary', 'aria-label': `Remove ${c.name}`,
        onclick: () => {
          if (!confirmAction(`Remove the credential “${c.name}”? Its tokens are refused from their next request, and it gets no new ones.`)) return
          void api('DELETE', `/credentials/${encodeURIComponent(c.clientId)}`, undefined, `Removing ${c.name}`)
            .then(changed).then(() => say(`Removed ${c.name}`), sayError)
        },
      }, 'Remove')))))))
}

/** Name, then full access or folders (rows of path and right; one more row on demand). */
function newCredentialForm(made: (m: Made) => Promise<void>): HTMLElement {
  const name = field(h('input', { type: 'text', id: 'credential-name', placeholder: 'Photo backup', autocomplete: 'off', maxlength: '100' }), 'Name', 'What the script is for')
  // Full access leaves the folders aside (kept, should the owner choose folders again)
  const choose = () => { folders.slot.control.disabled = full.checked }
  const full = h('input', { type: 'radio', name: 'credential-access', value: 'full', onchange: () => choose() })
  const limited = h('input', { type: 'radio', name: 'credential-access', value: 'folders', checked: true, onchange: () => choose() })
  const rows = h('div', { class: 'folder-rows' })
  const addRow = () => {
    const n = rows.children.length
    const path = h('input', { type: 'text', id: `credential-folder-${n}`, placeholder: '/photos/', autocomplete: 'off', spellcheck: 'false', 'aria-label': `Folder ${n + 1}` })
    const right = h('select', { 'aria-label': `Access to folder ${n + 1}` }, h('option', { value: 'write' }, 'Read and write'), h('option', { value: 'read' }, 'Read'))
    rows.append(h('div', { class: 'folder-row' }, path, right))
  }
  addRow()
  const folders = field(h('fieldset', { id: 'credential-folders' }, rows), 'Folders', 'A folder that does not exist yet is made.')
  const form = h('form', { novalidate: true, 'aria-labelledby': 'new-credential-h' },
    h('h3', { id: 'new-credential-h' }, 'New credential'),
    name.el,
    h('p', {}, h('label', { class: 'check' }, limited, ' Only these folders'), ' ', h('label', { class: 'check' }, full, ' Full access as me')),
    folders.el,
    h('button', { type: 'button', class: 'small secondary', onclick: addRow }, 'Another folder'), ' ',
    h('button', { type: 'submit' }, 'Make credential'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    setFieldError(name.slot, name.slot.control.value.trim() === '' ? 'Give it a name' : undefined)
    if (name.slot.control.value.trim() === '') { name.slot.control.focus(); return }
    const chosen = [...rows.querySelectorAll('.folder-row')].map((r) => ({ path: r.querySelector('input')!.value.trim(), right: r.querySelector('select')!.value }))
      .filter((f) => f.path !== '')
    const body = { name: name.slot.control.value, folders: full.checked ? null : chosen }
    void api<Made>('POST', '/credentials', body, 'Making the credential').then(made, (err: unknown) => {
      sayError(err)
      setFieldError(folders.slot, err instanceof Error && /invalid_scope/.test(err.message) ? err.message : undefined)
    })
  })
  return form
}
