// Grants: the active access grants (GrantData, Solid Application Interoperability data grants) with revoke,
// and a form that creates one. The server validates it (400 schema, 422 meaning) and names each offending
// field by JSON pointer; each message appears beside its field.

import { ApiError, BASE, WEBID, api } from './api.ts'
import { clear, confirmAction, field, formatDate, h, say, sayError, setFieldError, type FieldSlot } from './dom.ts'

const INTEROP = 'http://www.w3.org/ns/solid/interop#'
const ACL = 'http://www.w3.org/ns/auth/acl#'
const MODES = ['Read', 'Append', 'Write', 'Create', 'Update', 'Delete'] as const
const SCOPES: Record<string, string> = { AllFromRegistry: 'Everything in the folder', SelectedFromRegistry: 'Selected items', Inherited: 'Inherited' }

interface GrantData {
  grantee: string; grantedBy: string; dataOwner: string; registeredShapeTree: string; hasDataRegistration: string; hasStorage: string
  scopeOfGrant: string; accessMode: string[]; hasDataInstance?: string[]; hasInheritingGrant?: GrantData[]
}
interface Listed { iri: string; createdAt: string; grant: GrantData }

const local = (iri: string, ns: string) => (iri.startsWith(ns) ? iri.slice(ns.length) : iri)
/** Pod URLs read as paths (/projects/), others in full. */
const short = (url: string) => (url.startsWith(`${BASE}/`) ? url.slice(BASE.length) : url)

function dataCell(g: GrantData): HTMLElement {
  const inherited = g.hasInheritingGrant ?? []
  return h('span', {}, h('code', {}, short(g.hasDataRegistration)),
    g.hasDataInstance?.length ? h('ul', { class: 'plain' }, g.hasDataInstance.map((i) => h('li', {}, h('code', {}, short(i))))) : '',
    h('span', { class: 'muted' }, ' shape tree ', h('code', {}, g.registeredShapeTree)),
    inherited.length ? h('span', { class: 'muted' }, `; also ${inherited.map((c) => short(c.hasDataRegistration)).join(', ')} (inherited)`) : '')
}

function grantRow(view: HTMLElement, x: Listed): HTMLElement {
  const g = x.grant
  const what = `the grant for ${g.grantee} on ${short(g.hasDataRegistration)}`
  return h('tr', {},
    h('td', { 'data-label': 'Grantee' }, h('code', {}, g.grantee)),
    h('td', { 'data-label': 'Data' }, dataCell(g)),
    h('td', { 'data-label': 'May', class: 'words' }, g.accessMode.map((m) => local(m, ACL)).join(', ')),
    h('td', { 'data-label': 'Scope', class: 'words' }, SCOPES[local(g.scopeOfGrant, INTEROP)] ?? g.scopeOfGrant),
    h('td', { 'data-label': 'Created', class: 'words' }, formatDate(x.createdAt), h('br', {}), h('span', { class: 'muted' }, 'until revoked')),
    h('td', {}, h('button', {
      type: 'button', class: 'small secondary', 'aria-label': `Revoke ${what}`,
      onclick: () => {
        if (!confirmAction(`Revoke ${what}? The access ends with the next request.`)) return
        void api('DELETE', new URL(x.iri).pathname.slice('/.admin/api'.length), undefined, 'Revoking the grant')
          .then(() => showGrants(view)).then(() => say(`Revoked ${what}`), sayError)
      },
    }, 'Revoke')))
}

export async function showGrants(view: HTMLElement): Promise<void> {
  const { grants } = await api<{ grants: Listed[] }>('GET', '/grants', undefined, 'Reading your grants')
  clear(view)
  const head = ['Grantee', 'Data', 'May', 'Scope', 'Created']
  view.append(
    h('h2', {}, 'Access grants'),
    h('p', { class: 'muted' }, 'A grant lets a person, an app or a key use the data in one folder of your pod, all of it or selected items, until you revoke it. It counts beside the access set in Share.'),
    // GrantData names the owner and the storage by https URL (SAI §9): say so before the owner fills in the form
    BASE.startsWith('http:') ? h('p', { class: 'warning', id: 'grants-need-https' }, `Grants need an https address: this pod runs at ${BASE}, so the server refuses every grant. Start it with an https --base-url (see the README).`) : '',
    h('section', { class: 'panel', 'aria-labelledby': 'grants-h' }, h('h3', { id: 'grants-h' }, 'Active grants'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'stack', id: 'grants-table' },
        h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')))),
        h('tbody', {}, grants.length ? grants.map((x) => grantRow(view, x)) : h('tr', {}, h('td', { colspan: String(head.length + 1), class: 'muted' }, 'No grants yet')))))),
    grantForm(view))
}

/** A pod path (`/projects/`) becomes a URL on this pod; anything else is sent as typed. */
const toUrl = (v: string) => (v.startsWith('/') ? BASE + v : v)

function grantForm(view: HTMLElement): HTMLElement {
  const input = (id: string, placeholder: string) => h('input', { type: 'url', id, placeholder, autocomplete: 'off', spellcheck: 'false' })
  const grantee = field(input('grant-grantee', 'https://bob.example/profile/card#me'), 'Grantee', 'Their WebID, an app’s client id, or a key URL (https)')
  const registration = field(input('grant-registration', '/projects/'), 'Folder (data registration)', 'A folder of your pod, like /projects/')
  const shapeTree = field(input('grant-shape-tree', 'https://shapes.example/trees#Project'), 'Shape tree', 'The shape tree the data follows (https URL)')
  const scope = field(h('select', { id: 'grant-scope' }, Object.entries(SCOPES).filter(([k]) => k !== 'Inherited').map(([k, v]) => h('option', { value: k }, v))), 'Applies to')
  const instances = field(h('textarea', { id: 'grant-instances', rows: '3', class: 'short', spellcheck: 'false' }), 'Selected items', 'Only for “Selected items”: one path or URL per line, inside the folder')
  const modeBoxes = MODES.map((m) => h('input', { type: 'checkbox', id: `grant-mode-${m}`, value: m, checked: m === 'Read' }))
  const modes = field(h('fieldset', { id: 'grant-modes' }, modeBoxes.map((b) => h('label', {}, b, ` ${b.value}`))), 'May')
  const general = h('div', { id: 'grant-form-error', class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const submit = h('button', { type: 'submit' }, 'Create grant')
  const form = h('form', { novalidate: true, 'aria-labelledby': 'new-grant-h' },
    h('h3', { id: 'new-grant-h' }, 'New grant'), general,
    grantee.el, registration.el, shapeTree.el, scope.el, instances.el, modes.el, submit)

  // Where each pointer's message goes; the owner, storage and grantor are filled in here, so theirs are the form's own
  const slots: [RegExp, FieldSlot, string][] = [
    [/^\/grantee$/, grantee.slot, 'Grantee'], [/^\/hasDataRegistration$/, registration.slot, 'Folder'],
    [/^\/registeredShapeTree$/, shapeTree.slot, 'Shape tree'], [/^\/scopeOfGrant$/, scope.slot, 'Applies to'],
    [/^\/hasDataInstance(\/\d+)?$/, instances.slot, 'Selected items'], [/^\/accessMode(\/\d+)?$/, modes.slot, 'May'],
  ]
  const showViolations = (err: ApiError) => {
    const perSlot = new Map<FieldSlot, string[]>()
    let rest = 0
    for (const v of err.violations) {
      const hit = slots.find(([re]) => re.test(v.pointer))
      if (!hit) { rest++; continue }
      const item = /\/(\d+)$/.exec(v.pointer)
      perSlot.set(hit[1], [...(perSlot.get(hit[1]) ?? []), `${hit[2]}${item ? ` (item ${Number(item[1]) + 1})` : ''}: expected ${v.expected}`])
    }
    for (const [, slot] of slots) setFieldError(slot, perSlot.get(slot)?.join(' '))
    general.hidden = rest === 0
    // The server's whole message: it also says what to do about what no field here can change (an http base URL)
    general.textContent = err.message
    // Focus goes to the first field the server named (a fieldset's first box), so the person starts there
    const first = [...perSlot.keys()][0]?.control
    ;(first instanceof HTMLFieldSetElement ? first.querySelector('input') : first ?? general)?.focus()
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault()
    for (const [, slot] of slots) setFieldError(slot, undefined)
    general.hidden = true
    const selected = scope.slot.control.value === 'SelectedFromRegistry'
    const items = instances.slot.control.value.split('\n').map((l) => l.trim()).filter(Boolean)
    const grant: Record<string, unknown> = {
      grantee: grantee.slot.control.value.trim(), grantedBy: WEBID, dataOwner: WEBID,
      registeredShapeTree: shapeTree.slot.control.value.trim(),
      hasDataRegistration: toUrl(registration.slot.control.value.trim()), hasStorage: `${BASE}/`,
      scopeOfGrant: INTEROP + scope.slot.control.value,
      accessMode: modeBoxes.filter((b) => b.checked).map((b) => ACL + b.value),
      // Items typed for "Everything in the folder" are sent too: the server says they do not belong there
      ...(selected || items.length ? { hasDataInstance: items.map(toUrl) } : {}),
    }
    submit.disabled = true
    void api<GrantData>('POST', '/grants', grant, 'Creating the grant')
      .then(() => showGrants(view)).then(() => say(`Granted ${grant.grantee as string} access to ${short(grant.hasDataRegistration as string)}`))
      // The status line first (it scrolls into view), then the fields, where focus ends
      .catch((err: unknown) => { sayError(err); if (err instanceof ApiError && err.violations.length) showViolations(err) })
      .finally(() => { submit.disabled = false })
  })
  return h('section', { class: 'panel' }, form)
}
