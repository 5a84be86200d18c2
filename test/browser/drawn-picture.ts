// A real PNG for the dashboard's tests: drawn on a canvas in the page (text on a coloured ground), as a
// photo a person picks would be; the bytes come back to the test.

import type { Page } from 'playwright-core'

export interface Drawing {
  readonly width: number
  readonly height: number
  readonly color: string
  readonly text: string
  readonly font: string
}

export const drawPicture = (page: Page, d: Drawing): Promise<number[]> =>
  page.evaluate(async o => {
    const canvas = Object.assign(document.createElement('canvas'), { width: o.width, height: o.height })
    const g = canvas.getContext('2d')!
    g.fillStyle = o.color
    g.fillRect(0, 0, o.width, o.height)
    g.fillStyle = '#fff'
    g.font = o.font
    g.fillText(o.text, o.width / 8, (o.height * 2) / 3)
    const blob = await new Promise<Blob>(resolve => canvas.toBlob(b => resolve(b!), 'image/png'))
    return Array.from(new Uint8Array(await blob.arrayBuffer()))
  }, d)
