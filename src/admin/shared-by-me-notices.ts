// What the Shared by me page says after one of its own forms took something back: Remove of a share link and Revoke
// of a grant lead back there (not to the Links or Grants page), so the owner going down the list stays on it.

import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { GRANT_REVOKED, LINK_REMOVED } from './taken-back-words.ts'

/** Only these words are ever shown: `?done=` picks one, it is never echoed. */
const DONE = {
  'link-removed': LINK_REMOVED,
  revoked: GRANT_REVOKED,
} as const

export const sharedByMeDone = (done: keyof typeof DONE) => `${ADMIN_PATHS.sharedByMe}?done=${done}`

export const sharedByMeNotice = (done: unknown): { notice?: string } =>
  typeof done === 'string' && Object.hasOwn(DONE, done) ? { notice: DONE[done as keyof typeof DONE] } : {}
