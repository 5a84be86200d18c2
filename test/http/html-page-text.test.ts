// How the pages write refusals and URLs for a person: sentences, and URLs that wrap only in their path.

import { describe, expect, test } from 'bun:test'
import { asSentence, breakableUrl, errorPage } from '../../src/http/html-page.ts'
import { HttpError } from '../../src/http/errors.ts'
import { localTime, localTimeText } from '../../src/http/local-time.ts'

describe('asSentence', () => {
  test.each([
    ['the password is wrong; type it again', 'The password is wrong; type it again.'],
    ['already a sentence.', 'Already a sentence.'],
    ['is this a question?', 'Is this a question?'],
    ['', ''],
  ])('%p → %p', (input, expected) => expect(asSentence(input)).toBe(expected))
})

describe('breakableUrl', () => {
  test('offers breaks after path slashes and before # and ?, never in the scheme or host', () => {
    expect(breakableUrl('http://localhost:3000/profile/card#me').value).toBe('<span class="url">http://localhost:3000/<wbr>profile/<wbr>card<wbr>#me</span>')
    expect(breakableUrl('https://pod.example/a?b=1').value).toBe('<span class="url">https://pod.example/<wbr>a<wbr>?b=1</span>')
  })
  test('escapes what it is given', () => {
    expect(breakableUrl('https://x.example/"<b>').value).toBe('<span class="url">https://x.example/<wbr>&quot;&lt;b&gt;</span>')
  })
  test('a client id that is not a URL is escaped, without breaks', () => {
    expect(breakableUrl('abc-123').value).toBe('<span class="url">abc-123</span>')
  })
})

describe('localTime', () => {
  test('a readable date and time in a <time> with the exact instant, each part unbreakable', () => {
    const t = localTime(Date.UTC(2026, 10, 25, 0, 41)).value
    expect(t).toStartWith('<time datetime="2026-11-25T00:41:00.000Z"><span class="nowrap">')
    expect(t.replace(/<[^>]+>/g, '')).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} \S+$/)
  })
})

describe('localTimeText', () => {
  test('the same words as plain text; with seconds, to the second', () => {
    const ms = Date.UTC(2026, 10, 25, 0, 41, 7)
    expect(localTimeText(ms)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} \S+$/)
    expect(localTimeText(ms, true)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:07 \S+$/)
    expect(localTimeText(ms, true).startsWith(localTimeText(ms).split(' ').slice(0, 4).join(' '))).toBe(true)
  })
})

describe('the error page heading', () => {
  test('a refusal by the pod’s state says it was not done; only the pod’s own failure says something went wrong', async () => {
    const heading = async (status: 409 | 412 | 413 | 422 | 500, code: string) =>
      /<h1>([^<]*)<\/h1>/.exec(await (await errorPage(new HttpError(status as never, code as never, 'x'))).text())?.[1]
    expect(await heading(409, 'protected_resource')).toBe('Not done')
    expect(await heading(412, 'changed_meanwhile')).toBe('Not done')
    expect(await heading(413, 'payload_too_large')).toBe('Too large')
    expect(await heading(422, 'webid_not_found')).toBe('Not done')
    expect(await heading(500, 'server_error')).toBe('Something went wrong')
  })
})
