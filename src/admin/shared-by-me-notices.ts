// What the Shared by me page says after one of its own forms took something back: Remove of a share link and Revoke
// of a grant lead back there (not to the Links or Grants page), so the owner going down the list stays on it.

import { ADMIN_PATHS } from '../http/pod-paths.ts'

/** Only these words are ever shown: `?done=` picks one, it is never echoed. */
const DONE = {
  'link-removed': 'Link removed: it opens nothing from now on',
  revoked: 'Grant revoked: the access ends with the next request',
} as const

export const sharedByMeDone = (done: keyof typeof DONE) => `${ADMIN_PATHS.sharedByMe}?done=${done}`

export const sharedByMeNotice = (done: unknown): { notice?: string } =>
  typeof done === 'string' && Object.hasOwn(DONE, done) ? { notice: DONE[done as keyof typeof DONE] } : {}
