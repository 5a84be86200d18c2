// Enhancement of the keys page (src/admin/keys-page.ts): with a script the key pair is made here in the browser
// with WebCrypto (ECDSA P-256, ES256) instead of pasted. Only the public JWK goes to the pod (POST
// /.admin/api/keys, the function the page's form calls); the private JWK is offered once as a download and then
// dropped: the pod never sees it, and this page forgets it after the download.

import type { CreatedKey } from '../../src/admin/keys.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { ApiError, api } from './api.ts'
import { confirmAction, h, say, sayError } from './dom.ts'

const KEYS = ADMIN_PATHS.keys.slice(ADMIN_PATHS.api.length)
// A reload or a closed tab would lose the private key for good: the browser asks first
const warnBeforeLeaving = (e: BeforeUnloadEvent) => {
  e.preventDefault()
}

export function makeKeyInBrowser(form: HTMLElement): void {
  if (!(form instanceof HTMLFormElement) || !crypto.subtle) return // without WebCrypto (http, not localhost) the paste form stays
  for (const el of form.querySelectorAll<HTMLElement>('[data-no-script]')) el.hidden = true
  form.querySelector<HTMLTextAreaElement>('[name="publicJwk"]')!.disabled = true
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  submit.textContent = 'Make a key in this browser'
  form.prepend(h('p', { class: 'muted' }, 'Made here in your browser (ECDSA P-256, ES256). You download the private key once; the pod never receives it.'))
  const name = form.querySelector<HTMLInputElement>('[name="name"]')!
  const asOwner = form.querySelector<HTMLInputElement>('[name="linkFromProfile"]')!
  form.addEventListener('submit', e => {
    e.preventDefault()
    submit.disabled = true
    void makeKey(name.value.trim(), asOwner.checked)
      .then(({ key, privateKey }) => {
        offer(key, privateKey)
        say(`CreatedKey the key ${key.name}: download its private key now`)
      })
      .catch((err: unknown) => {
        sayError(err)
        if (err instanceof ApiError && err.violations.some(v => v.pointer === '/name')) name.focus()
      })
      .finally(() => {
        submit.disabled = false
      })
  })
}

async function makeKey(name: string, linkFromProfile: boolean): Promise<{ key: CreatedKey; privateKey: CryptoKey }> {
  // extractable: the private half must be exported once, into the download
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey)
  const key = await api<CreatedKey>('POST', KEYS, { ...(name ? { name } : {}), publicJwk: { kty, crv, x, y }, linkFromProfile }, 'Creating the key')
  window.addEventListener('beforeunload', warnBeforeLeaving)
  return { key, privateKey: pair.privateKey }
}

/** The private key, offered exactly once; after the download (or "discard") the page is loaded afresh, without it. */
function offer(key: CreatedKey, privateKey: CryptoKey): void {
  const file = `${key.name}.private.jwk`
  const done = (message: string) => {
    window.removeEventListener('beforeunload', warnBeforeLeaving)
    say(message)
    setTimeout(() => {
      location.assign(`${ADMIN_PATHS.keysPage}?done=published`)
    }, 1500)
  }
  const download = async () => {
    const jwk = await crypto.subtle.exportKey('jwk', privateKey)
    const text = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d, alg: 'ES256', kid: key.keyUrl }, null, 2) + '\n'
    const url = URL.createObjectURL(new Blob([text], { type: 'application/jwk+json' }))
    const a = h('a', { href: url, download: file })
    document.body.append(a)
    a.click()
    a.remove()
    // The blob URL is the last place the key lives: gone once the browser has started the download
    setTimeout(() => URL.revokeObjectURL(url), 1000)
    done(`Downloaded ${file}. Keep it secret: anyone with it can sign as this key.`)
  }
  const slot = document.getElementById('key-offer-slot')!
  slot.replaceChildren(
    h(
      'section',
      { class: 'panel warning', id: 'key-offer', 'aria-labelledby': 'offer-h' },
      h('h2', { id: 'offer-h' }, `Download the private key of ${key.name} now`),
      h('p', {}, 'It is offered only this once: your pod never had it, and this page forgets it after the download.'),
      h('p', {}, 'Key URL (keyid): ', h('code', {}, key.keyUrl)),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            id: 'download-key',
            onclick: () => {
              void download().catch(sayError)
            },
          },
          `Download ${file}`,
        ),
        // Without its private half a key is of no use to anyone: discarding revokes it too
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => {
              if (!confirmAction(`Discard the private key of ${key.name} and revoke the key?`)) return
              void api('DELETE', `${KEYS}/${encodeURIComponent(key.name)}`, undefined, `Revoking the key ${key.name}`).then(
                () => done(`Discarded and revoked the key ${key.name}`),
                sayError,
              )
            },
          },
          'Discard and revoke',
        ),
      ),
    ),
  )
  slot.scrollIntoView()
  document.getElementById('download-key')!.focus()
}
