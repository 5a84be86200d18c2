// What a refusal means to a person, in plain words, for the refusals people commonly meet: shown first on
// the owner's pages and in the dashboard script's messages, with the server's (technical) description
// after it and the error code small, for whoever reports it. Pure: the server's pages and the script share it.

/**
 * By code: the same status means different things (a 403 that is a stale form or a wrong password, not a
 * refusal of rights; a 401 that is a wrong password on the sign-in page, not a session that ended).
 */
const BY_CODE: Record<string, string> = {
  changed_meanwhile: 'Someone changed this while you were working on it, so your change was not saved.',
  csrf_failed: 'This page is out of date (it was opened before you last signed in): reload it and try again.',
  login_required: 'You are signed out: sign in again, then try once more.',
  unauthenticated: 'You are signed out: sign in again, then try once more.',
  // Refusals of rights by the pod's rules; a 403 or 401 of another code (a wrong password) says it better itself
  forbidden: 'You are not allowed to do this.',
  outside_app_scope: 'You are not allowed to do this.',
  not_found: 'This is not here: it was moved or deleted, or the address is wrong.',
}

/** By status only where every code of it means the same to a person. */
const BY_STATUS: Record<number, string> = {
  412: 'Someone changed this while you were working on it, so your change was not saved.',
  413: 'This is too large for the pod to take.',
  415: 'The pod does not take this kind of file here.',
}

/** The sentence for a refusal a person commonly meets, or undefined where the description is already the message. */
export const plainWords = (status: number, code: string): string | undefined => BY_CODE[code] ?? BY_STATUS[status]
