// Keys: HttpSig signing keys (RFC 9421 message signatures) made in this browser with WebCrypto. Only the
// public JWK goes to the pod (POST /.admin/api/keys); the private JWK is offered once as a download and then
// dropped: the pod never sees it, and this page forgets it after the download.

import { ApiError, api } from './api.ts'
import { clear, confirmAction, field, formatDate, h, say, sayError, setFieldError } from './dom.ts'

interface Listed { name: string; keyUrl: string; documentUrl: string; thumbprint?: string; problem?: string; linkedFromProfile: boolean; modified: string }
interface Created { name: string; keyUrl: string; documentUrl: string; thumbprint: string }

/** The one private key waiting to be downloaded; it survives a visit to another panel, not a reload. */
let pending: { key: Created; privateKey: CryptoKey } | null = null

// A reload or a closed tab would lose the private key for good: the browser asks first
const warnBeforeLeaving = (e: BeforeUnloadEvent) => { e.preventDefault() }

export async function showKeys(view: HTMLElement): Promise<void> {
  const { keys } = await api<{ keys: Listed[] }>('GET', '/keys', undefined, 'Reading your keys')
  clear(view)
  view.append(
    h('h2', {}, 'Signing keys'),
    h('p', { class: 'muted' }, 'Scripts and apps sign requests with a private key (HTTP Message Signatures); your pod publishes only the public key at its URL. ' +
      'Give a key access in Share (Who: Key) or with a grant; a key linked from your profile can also act as you.'),
    pending ? offer(view, pending) : '',
    h('section', { class: 'panel', 'aria-labelledby': 'keys-h' }, h('h3', { id: 'keys-h' }, 'Your keys'), keyTable(view, keys)),
    newKeyForm(view))
}

function keyTable(view: HTMLElement, keys: Listed[]): HTMLElement {
  const head = ['Name', 'Key URL', 'Fingerprint', 'Signs as you', 'Created']
  return h('div', { class: 'table-wrap' }, h('table', { class: 'stack', id: 'keys-table' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')))),
    h('tbody', {}, keys.length === 0 ? h('tr', {}, h('td', { colspan: String(head.length + 1), class: 'muted' }, 'No keys yet')) : keys.map((k) => h('tr', {},
      h('td', { 'data-label': 'Name', class: 'words' }, k.name),
      h('td', { 'data-label': 'Key URL' }, h('a', { href: k.documentUrl }, h('code', {}, k.keyUrl))),
      h('td', { 'data-label': 'Fingerprint' }, k.thumbprint ? h('code', {}, k.thumbprint) : h('span', { class: 'field-error' }, `unusable: ${k.problem ?? 'unknown'}`)),
      h('td', { 'data-label': 'Signs as you', class: 'words' }, k.linkedFromProfile ? 'yes (linked from your profile)' : 'no'),
      h('td', { 'data-label': 'Created', class: 'words' }, formatDate(k.modified)),
      h('td', {}, h('button', {
        type: 'button', class: 'small secondary', 'aria-label': `Revoke key ${k.name}`,
        onclick: () => {
          if (!confirmAction(`Revoke the key ${k.name}? Requests signed with it are refused from now on, wherever it was given access. This cannot be undone.`)) return
          void api('DELETE', `/keys/${encodeURIComponent(k.name)}`, undefined, `Revoking the key ${k.name}`)
            .then(() => showKeys(view)).then(() => say(`Revoked the key ${k.name}`), sayError)
        },
      }, 'Revoke')))))))
}

function newKeyForm(view: HTMLElement): HTMLElement {
  const name = field(h('input', { type: 'text', id: 'key-name', placeholder: 'laptop', autocomplete: 'off', spellcheck: 'false', maxlength: '64' }),
    'Name', 'Letters, digits, “.”, “_” or “-”; leave empty for a dated name')
  const asOwner = h('input', { type: 'checkbox', id: 'key-as-owner' })
  const submit = h('button', { type: 'submit' }, 'Create key')
  const form = h('form', { novalidate: true, 'aria-labelledby': 'new-key-h' },
    h('h3', { id: 'new-key-h' }, 'New key'),
    h('p', { class: 'muted' }, 'Made here in your browser (ECDSA P-256, ES256). You download the private key once; the pod never receives it.'),
    name.el,
    h('label', { class: 'check' }, asOwner, ' It may act as me: link it from my profile'),
    h('p', { class: 'hint', id: 'key-as-owner-hint' }, 'Requests signed with it that send cred="<your WebID>" then have all your access. Without this, it has only what Share and grants give its URL.'),
    submit)
  asOwner.setAttribute('aria-describedby', 'key-as-owner-hint')
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    setFieldError(name.slot, undefined)
    if (pending && !confirmAction(`The private key of ${pending.key.name} was not downloaded yet and will be lost. Make a new key anyway?`)) return
    submit.disabled = true
    void createKey(name.slot.control.value.trim(), asOwner.checked)
      .then(() => showKeys(view)).then(() => say(`Created the key ${pending?.key.name ?? ''}: download its private key now`))
      .catch((err: unknown) => {
        const v = err instanceof ApiError ? err.violations.find((x) => x.pointer === '/name') : undefined
        // The status line first (it scrolls into view), then the field, where the person ends up
        sayError(err)
        if (v) { setFieldError(name.slot, `Name: ${v.expected}`); name.slot.control.focus() }
      })
      .finally(() => { submit.disabled = false })
  })
  return h('section', { class: 'panel' }, form)
}

async function createKey(name: string, linkFromProfile: boolean): Promise<void> {
  if (!crypto.subtle) throw new Error('This browser cannot make keys here: WebCrypto needs a secure context (https, or http://localhost)')
  // extractable: the private half must be exported once, into the download
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey)
  const key = await api<Created>('POST', '/keys', { ...(name ? { name } : {}), publicJwk: { kty, crv, x, y }, linkFromProfile }, 'Creating the key')
  pending = { key, privateKey: pair.privateKey }
  window.addEventListener('beforeunload', warnBeforeLeaving)
}

/** The private key, offered exactly once: after the download (or "discard") this page holds it no more. */
function offer(view: HTMLElement, p: NonNullable<typeof pending>): HTMLElement {
  const file = `${p.key.name}.private.jwk`
  const done = (message: string) => {
    pending = null
    window.removeEventListener('beforeunload', warnBeforeLeaving)
    void showKeys(view).then(() => say(message), sayError)
  }
  const download = async () => {
    const jwk = await crypto.subtle.exportKey('jwk', p.privateKey)
    const text = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, alg: 'ES256', kid: p.key.keyUrl }, null, 2) + '\n'
    const url = URL.createObjectURL(new Blob([text], { type: 'application/jwk+json' }))
    const a = h('a', { href: url, download: file })
    document.body.append(a)
    a.click()
    a.remove()
    // The blob URL is the last place the key lives: gone once the browser has started the download
    setTimeout(() => URL.revokeObjectURL(url), 1000)
    done(`Downloaded ${file}. Keep it secret: anyone with it can sign as this key.`)
  }
  return h('section', { class: 'panel warning', id: 'key-offer', 'aria-labelledby': 'offer-h' },
    h('h3', { id: 'offer-h' }, `Download the private key of ${p.key.name} now`),
    h('p', {}, 'It is offered only this once: your pod never had it, and this page forgets it after the download.'),
    h('p', {}, 'Key URL (keyid): ', h('code', {}, p.key.keyUrl)),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'download-key', onclick: () => { void download().catch(sayError) } }, `Download ${file}`),
      // Without its private half a key is of no use to anyone: discarding revokes it too
      h('button', { type: 'button', class: 'secondary', onclick: () => {
        if (!confirmAction(`Discard the private key of ${p.key.name} and revoke the key?`)) return
        void api('DELETE', `/keys/${encodeURIComponent(p.key.name)}`, undefined, `Revoking the key ${p.key.name}`)
          .then(() => done(`Discarded and revoked the key ${p.key.name}`), sayError)
      } }, 'Discard and revoke')))
}
