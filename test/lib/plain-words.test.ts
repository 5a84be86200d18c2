// The plain-words sentence shown first on a refusal: by code where one status means different things.

import { describe, expect, test } from 'bun:test'
import { plainWords } from '../../src/lib/plain-words.ts'

describe('plain words for a refusal', () => {
  test('a wrong password on the sign-in page (401) is not "you are signed out": its description says it', () => {
    expect(plainWords(401, 'invalid_credentials')).toBeUndefined()
    expect(plainWords(401, 'login_required')).toBe('You are signed out: sign in again, then try once more.')
  })
  test('a wrong current password (403) is not "you are not allowed"; a refusal by the rules is', () => {
    expect(plainWords(403, 'wrong_current_password')).toBeUndefined()
    expect(plainWords(403, 'forbidden')).toBe('You are not allowed to do this.')
    expect(plainWords(403, 'csrf_failed')).toMatch(/^This page is out of date/)
  })
  test('a conflict, a size or a type: the same for every code of its status', () => {
    expect(plainWords(412, 'precondition_failed')).toMatch(/^Someone changed this/)
    expect(plainWords(413, 'payload_too_large')).toBe('This is too large for the pod to take.')
    expect(plainWords(415, 'unsupported_media_type')).toBe('The pod does not take this kind of file here.')
  })
})
