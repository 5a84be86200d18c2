// Share: who may do what with a resource (WAC), as an editable table; Save writes its ACL document
// with a PUT to the resource server, which validates it and refuses an owner lock-out (409).

import { BASE, WEBID, api, ldp } from './api.ts'
import { clear, confirmAction, field, h, readablePath, say, sayError, setFieldError, type FieldSlot } from './dom.ts'
import { breadcrumbs } from './files.ts'
import { checkAccessPanel } from './check-access.ts'
import type { AclRow } from '../../src/admin/acl-view.ts'
import { shareLinks } from '../../src/admin/share-links.ts'
import { markSaved, markUnsaved } from './unsaved.ts'
import { AUTHENTICATED, FOAF_AGENT, KIND_LABEL, MODES, MODE_LABEL, aclTurtle, appsText, entriesOf, givesOwnerControl, inheritedAsOwn, clientFieldProblem, isIri, onlyThroughApp, scopeText, type Entry, type Kind } from '../../src/admin/acl-entries.ts'

interface AclView { path: string; url: string; aclUrl: string; owner: string; isRoot: boolean; own: AclRow[] | null; inherited: { from: string; rows: AclRow[] } | null; notEditable: { count: number; statements: string[] } }

const who = (e: Entry, owner: string): Node | string =>
  e.kind === 'public' ? 'Everyone (public)' : e.kind === 'authenticated' ? 'Anyone signed in'
    : h('span', {}, e.kind === 'agent' && e.value === owner ? 'You (owner) ' : `${KIND_LABEL[e.kind]} `, h('code', {}, e.value))

function table(entries: Entry[], owner: string, container: boolean, onRemove?: (i: number) => void): HTMLElement {
  const head = ['Who', 'May', 'Applies to', 'Only through']
  return h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), onRemove ? h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')) : null)),
    h('tbody', {}, entries.length === 0 ? h('tr', {}, h('td', { colspan: '5', class: 'muted' }, 'Nobody')) : entries.map((e, i) => h('tr', {},
      h('td', { 'data-label': 'Who' }, who(e, owner)),
      h('td', { 'data-label': 'May' }, e.modes.map((m) => MODE_LABEL[m] ?? m).join(', ')),
      h('td', { 'data-label': 'Applies to' }, scopeText(e, container)),
      h('td', { 'data-label': 'Only through' }, appsText(e)),
      onRemove ? h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `Remove access of ${e.kind === 'public' || e.kind === 'authenticated' ? KIND_LABEL[e.kind] : e.value}`, onclick: () => onRemove(i) }, 'Remove')) : null)))))
}

/** What leaving the panel after Add or Remove would lose. */
const unsavedAccess = 'The access you added or removed'

export async function showShare(view: HTMLElement, path: string): Promise<void> {
  markSaved()
  const acl = await api<AclView>('GET', `/acl?path=${encodeURIComponent(path)}`, undefined, `Reading who can access ${path}`)
  const container = path.endsWith('/')
  let entries = acl.own ? entriesOf(acl.own) : null
  const draw = () => {
    clear(view)
    view.append(breadcrumbs(path), h('h2', {}, `Who can access ${path === '/' ? 'your whole pod' : readablePath(path)}`))
    if (acl.inherited) {
      view.append(h('section', { class: 'panel', 'aria-labelledby': 'inherited-h' },
        h('h3', { id: 'inherited-h' }, `Inherited from ${acl.inherited.from.slice(BASE.length)}`),
        h('p', { class: 'muted' }, entries ? 'This item has its own settings, so this inherited access does not apply to it.' : 'This item has no settings of its own: this access applies.'),
        table(inheritedAsOwn(acl.inherited.rows, container), acl.owner, container)))
    }
    // the saved access: a row added here opens nothing until Save
    const send = sendIt(path, acl.own ? entriesOf(acl.own) : inheritedAsOwn(acl.inherited?.rows ?? [], container), acl.owner)
    if (send) view.append(send)
    if (!entries) {
      view.append(checkAccessPanel(acl.url))
      view.append(h('button', { type: 'button', onclick: () => { entries = inheritedAsOwn(acl.inherited?.rows ?? [], container); draw() } },
        'Set access for this item only'))
      return
    }
    const own = entries
    view.append(h('section', { class: 'panel', 'aria-labelledby': 'own-h' },
      h('h3', { id: 'own-h' }, 'Access set here'),
      h('p', { class: 'muted' }, 'Save writes this item\'s ACL document anew from this table.'),
      leftoversWarning(acl),
      table(own, acl.owner, container, (i) => { own.splice(i, 1); markUnsaved(unsavedAccess); draw(); say('Removed; press Save to apply') }),
      addForm(container, (e) => { own.push(e); markUnsaved(unsavedAccess); draw(); say('Added; press Save to apply') }),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'save-acl', onclick: () => { void save(acl, own).then(() => { markSaved(); return showShare(view, path) }).then(() => say('Access saved'), sayError) } }, 'Save'),
        acl.own && !acl.isRoot ? h('button', { type: 'button', class: 'secondary', onclick: () => { void useInherited(acl).then(() => showShare(view, path)).catch(sayError) } }, 'Use inherited access instead') : null)),
      checkAccessPanel(acl.url))
  }
  draw()
}

/** "Send it": the link for each recipient, to copy, with what they will see there. */
function sendIt(path: string, entries: Entry[], owner: string): HTMLElement | null {
  const links = shareLinks(BASE, path, entries, owner)
  if (links.length === 0) return null
  const copy = (link: string, who: string) => () => {
    void navigator.clipboard.writeText(link).then(() => say(`Link for ${who} copied`), () => say(`Copy the link for ${who} by hand: ${link}`))
  }
  return h('section', { class: 'panel', 'aria-labelledby': 'send-h' }, h('h3', { id: 'send-h' }, 'Send it'),
    h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
      h('thead', {}, h('tr', {}, ['To', 'Link to send', 'What they will see'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, links.map((l) => h('tr', {},
        h('td', { 'data-label': 'To' }, h('code', {}, l.who)),
        h('td', { 'data-label': 'Link' }, h('input', { type: 'text', readonly: true, value: l.link, 'aria-label': `Link for ${l.who}` }), ' ',
          h('button', { type: 'button', class: 'small secondary', onclick: copy(l.link, l.who) }, 'Copy link')),
        h('td', { 'data-label': 'What they will see' }, l.sees)))))))
}

function addForm(container: boolean, add: (e: Entry) => void): HTMLElement {
  const kind = h('select', { id: 'share-kind' }, (['agent', 'public', 'authenticated', 'group', 'key'] as const).map((k) => h('option', { value: k }, KIND_LABEL[k])))
  const value = field(h('input', { type: 'url', id: 'share-value', placeholder: 'https://alice.example/profile/card#me', autocomplete: 'off' }), 'WebID, group or key URL')
  const origin = field(h('input', { type: 'url', id: 'share-origin', placeholder: 'https://app.example', autocomplete: 'off' }), 'Only through this app origin (optional)')
  const client = field(h('input', { type: 'url', id: 'share-client', placeholder: 'https://app.example/id', autocomplete: 'off' }), 'Only through this app: its client ID (optional, for a person)')
  const modeBoxes = MODES.map((m) => h('input', { type: 'checkbox', id: `share-mode-${m}`, value: m, checked: m === 'read' }))
  const modes = field(h('fieldset', { id: 'share-modes' }, modeBoxes.map((m) => h('label', {}, m, ` ${MODE_LABEL[m.value]}`))), 'May')
  const scope = h('select', { id: 'share-scope' },
    container ? [h('option', { value: 'both' }, 'This folder and everything inside'), h('option', { value: 'this' }, 'This folder only'), h('option', { value: 'inside' }, 'Only things inside')]
      : [h('option', { value: 'this' }, 'This item only')])
  const form = h('form', { class: 'row-form', 'aria-labelledby': 'add-h', novalidate: true },
    h('h4', { id: 'add-h' }, 'Add someone'),
    h('div', {}, h('label', { for: 'share-kind' }, 'Who'), kind),
    value.el, modes.el,
    h('div', {}, h('label', { for: 'share-scope' }, 'Applies to'), scope),
    origin.el, client.el,
    h('div', {}, h('button', { type: 'submit' }, 'Add')))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const k = kind.value as Kind
    const needsIri = k === 'agent' || k === 'group' || k === 'key'
    const v = needsIri ? value.slot.control.value.trim() : k === 'public' ? FOAF_AGENT : AUTHENTICATED
    const chosen = modeBoxes.filter((m) => m.checked).map((m) => m.value)
    const o = origin.slot.control.value.trim()
    const c = client.slot.control.value.trim()
    // Each problem beside its field, focus on the first: on a phone the status line is a screen away
    const problems: [FieldSlot, string | undefined][] = [
      [value.slot, needsIri && !isIri(v) ? `${KIND_LABEL[k]}: enter a full URL (https://…) with no spaces` : undefined],
      [modes.slot, chosen.length === 0 ? 'May: choose at least one of Read, Append, Write, Control' : undefined],
      [origin.slot, o && !isIri(o) ? 'App origin: enter an origin like https://app.example' : undefined],
      [client.slot, clientFieldProblem(c, k)],
    ]
    for (const [slot, message] of problems) setFieldError(slot, message)
    const first = problems.find(([, message]) => message !== undefined)
    if (first) {
      sayError(new Error(first[1]))
      ;(first[0].control instanceof HTMLFieldSetElement ? first[0].control.querySelector('input') : first[0].control)?.focus()
      return
    }
    add({ kind: k, value: v, modes: chosen, thisItem: scope.value !== 'inside', inside: scope.value !== 'this' && container, origins: o ? [new URL(o).origin] : [], conditions: c ? [onlyThroughApp(c)] : [] })
  })
  return form
}

/** The ACL holds statements this table cannot show: saving would drop them, so the page says which. */
function leftoversWarning(acl: AclView): HTMLElement | null {
  const { count, statements } = acl.notEditable
  if (count === 0) return null
  const aclPath = acl.aclUrl.slice(BASE.length)
  return h('div', { class: 'warning', id: 'acl-leftovers', role: 'note' },
    h('p', {}, `The ACL document holds ${count} statement${count === 1 ? '' : 's'} this editor cannot show (notes, rules for other resources, unknown terms). Saving here drops ${count === 1 ? 'it' : 'them'}:`),
    h('ul', {}, statements.map((s) => h('li', {}, h('code', {}, s)))),
    count > statements.length ? h('p', {}, `… and ${count - statements.length} more.`) : null,
    h('p', {}, 'To keep them, edit ', h('a', { href: `#/files${aclPath}` }, 'the ACL document as Turtle'), ' instead.'))
}

async function save(acl: AclView, entries: Entry[]): Promise<void> {
  if (entries.length === 0) throw new Error('Nobody would have access, not even you: add someone, or use the inherited access instead')
  const dropped = acl.notEditable.count
  if (dropped > 0 && !confirmAction(`Saving rewrites the ACL document and drops ${dropped} statement${dropped === 1 ? '' : 's'} this editor cannot show (listed on the page). Save anyway?`)) throw new Error('Not saved: the ACL document is unchanged')
  if (!entries.some((e) => givesOwnerControl(e, WEBID))
    && !confirmAction('You (the owner) will no longer have Control here, so you could not change this again from the dashboard. Save anyway?')) throw new Error('Not saved')
  await ldp('PUT', acl.aclUrl, { headers: { 'content-type': 'text/turtle' }, body: aclTurtle(acl.url, entries) }, 'Saving access')
}

async function useInherited(acl: AclView): Promise<void> {
  const dropped = acl.notEditable.count
  const alsoDrops = dropped > 0 ? ` This also drops the ${dropped} statement${dropped === 1 ? '' : 's'} of the ACL document this editor cannot show (listed on the page).` : ''
  if (!confirmAction(`Remove the access settings of ${acl.path}? It will then have the access inherited from its folder.${alsoDrops}`)) return
  await ldp('DELETE', acl.aclUrl, {}, 'Removing the access settings')
}
