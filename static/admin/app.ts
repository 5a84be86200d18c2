// The dashboard's one script. Every owner page is rendered by the pod and works without it (src/admin/*-page.ts);
// this adds what only a script can (upload progress, drag and drop, inline checks, live lists) to the elements a
// page marks with `data-enhance="NAME"`. Requests carry the page's CSRF token (api.ts); DOM nodes are built
// with textContent, never from HTML strings.

import { guardUnsaved } from './unsaved.ts'
import { followOldAddress } from './old-addresses.ts'
// Sharing, grants, keys
import { checkWebIdAsTyped, copyLinkButton } from './share-form.ts'
import { makeKeyInBrowser } from './keys.ts'
import { confirmBeforeSubmit } from './confirm-submit.ts'

/** What each `data-enhance` name does to its element (one line per enhancement). */
const ENHANCERS: Record<string, (el: HTMLElement) => void | Promise<void>> = {
  unsaved: guardUnsaved,
  // Sharing, grants, keys
  'share-form': checkWebIdAsTyped,
  'copy-link': copyLinkButton,
  'make-key': makeKeyInBrowser,
  confirm: confirmBeforeSubmit,
}

followOldAddress()
for (const [name, enhance] of Object.entries(ENHANCERS)) {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-enhance~="${name}"]`)) void enhance(el)
}
