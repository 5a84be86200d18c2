// What a refusal means to a person, in plain words, for the refusals people commonly meet: shown first on
// the owner's pages and in the dashboard script's messages, with the server's (technical) description
// after it and the error code small, for whoever reports it. Pure: the server's pages and the script share it.

/** By code first: the same status means different things (a 403 that is a stale form, not a refusal of rights). */
const BY_CODE: Record<string, string> = {
  changed_meanwhile: 'Someone changed this while you were working on it, so your change was not saved.',
  csrf_failed: 'This page is out of date (it was opened before you last signed in): reload it and try again.',
  login_required: 'You are signed out: sign in again, then try once more.',
}

const BY_STATUS: Record<number, string> = {
  401: 'You are signed out: sign in again, then try once more.',
  403: 'You are not allowed to do this.',
  404: 'This is not here: it was moved or deleted, or the address is wrong.',
  412: 'Someone changed this while you were working on it, so your change was not saved.',
  413: 'This is too large for the pod to take.',
  415: 'The pod does not take this kind of file here.',
}

/** The sentence for a refusal a person commonly meets, or undefined where the description is already the message. */
export const plainWords = (status: number, code: string): string | undefined => BY_CODE[code] ?? BY_STATUS[status]
