// The line an upload ends with: its English agrees with the count of files that got a number.

import { describe, expect, test } from 'bun:test'
import { uploadNotice } from '../../src/lib/upload-notice.ts'

describe('uploadNotice', () => {
  test('one renamed file has its name taken, several have theirs', () => {
    const line = (renamed: number) => uploadNotice('Holiday Photos', { done: 'upload', name: 'a.jpg', count: '3', bytes: '3072', renamed: String(renamed) })
    expect(line(0)).toBe('3 files uploaded to Holiday Photos\u00a0· 3.0\u00a0KB')
    expect(line(1)).toBe('3 files uploaded to Holiday Photos\u00a0· 3.0\u00a0KB\u00a0· 1 got a number, its name was taken')
    expect(line(2)).toBe('3 files uploaded to Holiday Photos\u00a0· 3.0\u00a0KB\u00a0· 2 got a number, their names were taken')
  })
})
