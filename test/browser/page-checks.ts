// What every page of the first hour must satisfy in a real browser: contrast of text on buttons and
// links (WCAG 2.2 SC 1.4.3, AA: 4.5:1), nothing wider than the screen, and the card off the edges.

import type { Page } from 'playwright-core'

export interface ContrastFailure { readonly what: string; readonly text: string; readonly ratio: number }

/**
 * Computed colours of every visible button, link and summary (and the error, warning and muted
 * texts), against the first non-transparent background behind each. WCAG relative luminance.
 */
export function contrastFailures(page: Page, minimum = 4.5): Promise<ContrastFailure[]> {
  return page.evaluate((min) => {
    const parse = (c: string) => {
      const m = /rgba?\(([^)]+)\)/.exec(c)
      if (!m) throw new Error(`unexpected colour ${c}`)
      const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number)
      return { r: p[0]!, g: p[1]!, b: p[2]!, a: p.length > 3 ? p[3]! : 1 }
    }
    const channel = (v: number) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4 }
    const luminance = (c: { r: number; g: number; b: number }) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
    const background = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor)
        if (c.a > 0) return c
      }
      return { r: 255, g: 255, b: 255, a: 1 }
    }
    const failures: { what: string; text: string; ratio: number }[] = []
    for (const el of document.querySelectorAll('button, a, summary, .error p, .warning p, .notice p, .muted, .code, label, h1, h2, p')) {
      const box = el.getBoundingClientRect()
      const text = (el.textContent ?? '').trim()
      if (box.width === 0 || box.height === 0 || text === '') continue
      const [fg, bg] = [luminance(parse(getComputedStyle(el).color)), luminance(background(el))]
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)
      if (ratio < min) failures.push({ what: el.tagName.toLowerCase() + (el.className ? `.${el.className}` : ''), text: text.slice(0, 40), ratio: Math.round(ratio * 100) / 100 })
    }
    return failures
  }, minimum)
}

/** The space between the card (<main>) and the screen's left and right edges, in CSS pixels. */
export function cardMargins(page: Page): Promise<{ left: number; right: number }> {
  return page.evaluate(() => {
    const box = document.querySelector('main')!.getBoundingClientRect()
    return { left: box.left, right: window.innerWidth - box.right }
  })
}

/** How many lines the text of each element matching `selector` takes. */
export function lineCount(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((s) => [...document.querySelectorAll(s)].map((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size
  }), selector)
}

/**
 * Whether the text `part` (inside one text node below `selector`) is split across lines: a WebID
 * must not break inside its host.
 */
export function isSplitAcrossLines(page: Page, selector: string, part: string): Promise<boolean> {
  return page.evaluate(([s, p]) => {
    const root = document.querySelector(s!)
    if (!root) throw new Error(`no ${s}`)
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent!.indexOf(p!)
      if (at < 0) continue
      const range = document.createRange()
      range.setStart(n, at)
      range.setEnd(n, at + p!.length)
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1
    }
    throw new Error(`"${p}" is not in one text node of ${s}`)
  }, [selector, part])
}

/** Visible form controls without an accessible name (a <label>, aria-label(ledby), or a button's text). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('input, select, textarea, button')]
    .filter((el) => el.getBoundingClientRect().width > 0)
    .filter((el) => !((el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (el.tagName === 'BUTTON' && el.textContent?.trim())))
    .map((el) => el.outerHTML.slice(0, 80)))
}
