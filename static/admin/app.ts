// The dashboard's one script. Every owner page is rendered by the pod and works without it (src/admin/*-page.ts);
// this adds what only a script can (upload progress, drag and drop, inline checks, live lists) to the elements a
// page marks with `data-enhance="NAME"`. Requests carry the page's CSRF token (api.ts); DOM nodes are built
// with textContent, never from HTML strings.

import { guardUnsaved } from './unsaved.ts'
import { followOldAddress } from './old-addresses.ts'
import { enhanceUpload } from './files-upload.ts'
import { enhanceSelection } from './files-select.ts'
import { sortOnChange } from './files-sort.ts'
import { keepTypedName } from './folder-picker.ts'
// Account pages (apps and sessions, scripts and bots, live updates, profile, backup)
import { confirmSubmit } from './confirm-submit.ts'
import { followBackup } from './backup-follow.ts'
import { previewPicture } from './picture-preview.ts'
// Viewing and editing one file
import { checkTurtle } from './check-turtle.ts'
import { enhanceMediaNav } from './media-nav.ts'
// Sharing, grants, keys
import { checkWebIdAsTyped, copyLinkButton } from './share-form.ts'
import { makeKeyInBrowser } from './keys.ts'

/** What each `data-enhance` name does to its element (one line per enhancement). */
const ENHANCERS: Record<string, (el: HTMLElement) => void | Promise<void>> = {
  unsaved: guardUnsaved,
  // Files (files-page.ts): upload with progress, drop and resume; "select all" for the selection's buttons
  upload: enhanceUpload,
  select: enhanceSelection,
  sort: sortOnChange,
  'folder-picker': keepTypedName,
  // Account pages
  confirm: confirmSubmit,
  'follow-backup': followBackup,
  'picture-preview': previewPicture,
  // Viewing and editing one file
  'check-turtle': checkTurtle,
  'media-nav': enhanceMediaNav,
  // Sharing, grants, keys
  'share-form': checkWebIdAsTyped,
  'copy-link': copyLinkButton,
  'make-key': makeKeyInBrowser,
}

followOldAddress()
for (const [name, enhance] of Object.entries(ENHANCERS)) {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-enhance~="${name}"]`)) void enhance(el)
}
