// What every page of the first hour must satisfy in a real browser: contrast of text on buttons and
// links (WCAG 2.2 SC 1.4.3, AA: 4.5:1), nothing wider than the screen, and the card off the edges.

import type { Page } from 'playwright-core'

export interface ContrastFailure {
  readonly what: string
  readonly text: string
  readonly ratio: number
}

/**
 * Computed colours of every visible button, link and summary (and the error, warning and muted
 * texts), against the first non-transparent background behind each. WCAG relative luminance.
 */
export function contrastFailures(page: Page, minimum = 4.5): Promise<ContrastFailure[]> {
  return page.evaluate(min => {
    const parse = (c: string) => {
      const m = /rgba?\(([^)]+)\)/.exec(c)
      if (!m) throw new Error(`unexpected colour ${c}`)
      const p = m[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number)
      return { r: p[0]!, g: p[1]!, b: p[2]!, a: p.length > 3 ? p[3]! : 1 }
    }
    const channel = (v: number) => {
      const s = v / 255
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }
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
      if (ratio < min)
        failures.push({
          what: el.tagName.toLowerCase() + (el.className ? `.${el.className}` : ''),
          text: text.slice(0, 40),
          ratio: Math.round(ratio * 100) / 100,
        })
    }
    return failures
  }, minimum)
}

/** The space between the card (<main>, or the dashboard's page under its header) and the screen's left and right edges, in CSS pixels. */
export function cardMargins(page: Page): Promise<{ left: number; right: number }> {
  return page.evaluate(() => {
    const box = (document.querySelector('.dash-body') ?? document.querySelector('main')!).getBoundingClientRect()
    return { left: box.left, right: window.innerWidth - box.right }
  })
}

/** How many lines the text of each element matching `selector` takes. */
export function lineCount(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(
    s =>
      [...document.querySelectorAll(s)].map(el => {
        const range = document.createRange()
        range.selectNodeContents(el)
        return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size
      }),
    selector,
  )
}

/**
 * Whether the text `part` (inside one text node below `selector`) is split across lines: a WebID
 * must not break inside its host.
 */
export function isSplitAcrossLines(page: Page, selector: string, part: string): Promise<boolean> {
  return page.evaluate(
    ([s, p]) => {
      const root = document.querySelector(s!)
      if (!root) throw new Error(`no ${s}`)
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent!.indexOf(p!)
        if (at < 0) continue
        const range = document.createRange()
        range.setStart(n, at)
        range.setEnd(n, at + p!.length)
        return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size > 1
      }
      throw new Error(`"${p}" is not in one text node of ${s}`)
    },
    [selector, part],
  )
}

export interface TextContrastFailure {
  readonly text: string
  readonly element: string
  readonly color: string
  readonly background: string
  readonly ratio: number
  readonly required: number
}

/**
 * WCAG 2.2 SC 1.4.3 (AA) for every piece of visible text on the page — text nodes, the values and
 * placeholders of inputs, and selects — against its effective background: the backgrounds of all its
 * ancestors composited over the page canvas (semi-transparent ones blended, SC 1.4.3 "Understanding":
 * the colour actually behind the text). 4.5:1, or 3:1 for large text (at least 24px, or 18.66px bold).
 * Disabled controls are exempt (SC 1.4.3: "inactive user interface component"). One entry per
 * distinct element, colour and background.
 */
export function textContrastFailures(page: Page): Promise<TextContrastFailure[]> {
  return page.evaluate(() => {
    type C = { r: number; g: number; b: number; a: number }
    const parse = (c: string): C => {
      if (c === 'transparent') return { r: 0, g: 0, b: 0, a: 0 }
      const m = /rgba?\(([^)]+)\)/.exec(c)
      if (!m) throw new Error(`unexpected colour ${c}`)
      const p = m[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number)
      return { r: p[0]!, g: p[1]!, b: p[2]!, a: p.length > 3 ? p[3]! : 1 }
    }
    const over = (top: C, under: C): C => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    })
    const channel = (v: number) => {
      const s = v / 255
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }
    const lum = (c: C) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
    const ratioOf = (a: C, b: C) => {
      const [x, y] = [lum(a), lum(b)]
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
    }
    const hex = (c: C) => `#${[c.r, c.g, c.b].map(v => Math.round(v).toString(16).padStart(2, '0')).join('')}`
    // The canvas under everything: Chromium paints white, or its dark canvas under color-scheme dark
    const dark = matchMedia('(prefers-color-scheme: dark)').matches && getComputedStyle(document.documentElement).colorScheme.includes('dark')
    const canvas: C = dark ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 }
    const backgroundOf = (el: Element): C => {
      const chain: Element[] = []
      for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e)
      return chain.reduce((bg, e) => over(parse(getComputedStyle(e).backgroundColor), bg), canvas)
    }
    const visible = (el: Element) => {
      const s = getComputedStyle(el)
      if (s.visibility === 'hidden' || Number(s.opacity) === 0) return false
      const r = el.getBoundingClientRect()
      return r.width > 1 && r.height > 1
    }
    const describe = (el: Element) =>
      el.tagName.toLowerCase() +
      (el.id ? `#${el.id}` : '') +
      (typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '')
    const seen = new Set<string>()
    const failures: { text: string; element: string; color: string; background: string; ratio: number; required: number }[] = []
    const check = (el: Element, text: string, colour: string) => {
      if (el.closest(':disabled, [aria-disabled="true"]')) return
      const s = getComputedStyle(el)
      const size = parseFloat(s.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700)
      const bg = backgroundOf(el)
      const fg = over(parse(colour), bg)
      const ratio = Math.round(ratioOf(fg, bg) * 100) / 100
      const required = large ? 3 : 4.5
      const id = `${describe(el)}|${hex(fg)}|${hex(bg)}`
      if (ratio < required && !seen.has(id)) {
        seen.add(id)
        failures.push({ text: text.trim().slice(0, 40), element: describe(el), color: hex(fg), background: hex(bg), ratio, required })
      }
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      if (!el || !n.textContent?.trim() || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION', 'TEXTAREA'].includes(el.tagName)) continue
      const range = document.createRange()
      range.selectNodeContents(n)
      if (![...range.getClientRects()].some(r => r.width > 1 && r.height > 1) || !visible(el)) continue
      check(el, n.textContent, getComputedStyle(el).color)
    }
    for (const el of document.querySelectorAll('input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, select')) {
      if (!visible(el)) continue
      const field = el as HTMLInputElement
      if (field.value) check(el, field.value, getComputedStyle(el).color)
      else if (field.placeholder) check(el, field.placeholder, getComputedStyle(el, '::placeholder').color)
    }
    return failures
  })
}

/** Visible form controls without an accessible name (a <label>, aria-label(ledby), or a button's text). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea, button')]
      .filter(el => el.getBoundingClientRect().width > 0)
      .filter(
        el =>
          !(
            (el as HTMLInputElement).labels?.length ||
            el.getAttribute('aria-label') ||
            el.getAttribute('aria-labelledby') ||
            (el.tagName === 'BUTTON' && el.textContent?.trim())
          ),
      )
      .map(el => el.outerHTML.slice(0, 80)),
  )
}

/**
 * Visible fields a person types or picks into (text, number, password, url, search, file, select, textarea) that kept
 * the browser's default look where the page's own fields have theirs: a padding under 4 px or square corners (the
 * default number field, 1 px padding and an inset border, looked broken beside the styled ones).
 */
export function unstyledFields(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea')]
      .filter(el => !['checkbox', 'radio', 'hidden', 'submit', 'button', 'color', 'range'].includes((el as HTMLInputElement).type))
      .filter(el => el.getBoundingClientRect().width > 0)
      .filter(el => {
        const s = getComputedStyle(el)
        return Number.parseFloat(s.paddingLeft) < 4 || Number.parseFloat(s.borderTopLeftRadius) === 0
      })
      .map(el => el.outerHTML.slice(0, 80)),
  )
}

/**
 * Command-line options shown on the page (`<code>--tls-key</code>`) that the browser broke over two lines: a person
 * copies them as they read them ("-" at a line's end, "-tls-key" on the next).
 */
export function splitOptions(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('code')].filter(el => /^--\S+$/.test(el.textContent ?? '') && el.getClientRects().length > 1).map(el => el.textContent ?? ''),
  )
}

/**
 * A "·" between items that the browser put at the start of a line ("· Photos and films" on a phone): it reads as a
 * bullet of what follows. Each is bound to the item before it (lib/separator.ts); found by the dot's position against
 * the left edge of its block's content; one the stylesheet draws before an item (`::before`), by its item's position. The
 * text after it names each.
 */
export function separatorsStartingLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const blockOf = (node: Node): Element | null => {
      for (let el = node.parentElement; el; el = el.parentElement) if (getComputedStyle(el).display !== 'inline') return el
      return null
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let i = text.indexOf('·'); i >= 0; i = text.indexOf('·', i + 1)) {
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const dot = range.getClientRects()[0]
        const block = blockOf(node)
        if (!dot || dot.width === 0 || !block) continue
        const style = getComputedStyle(block)
        const left = block.getBoundingClientRect().left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft)
        if (dot.left - left < 2) found.push(text.slice(i, i + 30))
      }
    }
    // A dot the stylesheet draws before an item (`::before { content: "· " }`) starts a line when its item does: the
    // item's first box at the left edge of its line's container (the flex or grid container, or the block around it)
    for (const el of document.body.querySelectorAll('*')) {
      const drawn = getComputedStyle(el, '::before').content
      const box = el.getClientRects()[0]
      if (!drawn.includes('·') || !box || box.width === 0) continue
      const parent = el.parentElement!
      const container = /flex|grid/.test(getComputedStyle(parent).display) || getComputedStyle(el).display !== 'inline' ? parent : blockOf(el)
      if (!container) continue
      const style = getComputedStyle(container)
      const left = container.getBoundingClientRect().left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft)
      if (box.left - left < 2) found.push(`${drawn.replace(/^"|"$/g, '')}${(el.textContent ?? '').trim().slice(0, 28)}`)
    }
    return found
  })
}

/**
 * Table cells that say their column's name twice on a phone: a stacked table shows each cell's `data-label` before it
 * ("Another folder: Another folder" when the cell starts with a label of the same words). The cell's text after the
 * shown name names each.
 */
export function repeatedCellLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The words a person sees in the cell: not a visually hidden label (read aloud only), not a list's options
    const seenText = (cell: Element) => {
      let text = ''
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement!
        if (el.closest('select') || el.getBoundingClientRect().width <= 1) continue
        text += n.textContent
      }
      return text.replace(/\s+/g, ' ').trim()
    }
    return [...document.querySelectorAll<HTMLElement>('td[data-label]')]
      .filter(td => td.getBoundingClientRect().width > 0)
      .filter(td => getComputedStyle(td, '::before').content.includes(td.dataset.label!))
      .map(td => ({ label: td.dataset.label!, text: seenText(td) }))
      .filter(({ label, text }) => text.toLowerCase().startsWith(label.toLowerCase()))
      .map(({ label, text }) => `${label}: ${text.slice(0, 40)}`)
  })
}

/**
 * Short words the browser cut in two across lines ("Folde" / "r", "text/markdo" / "wn" in a squeezed column): a word of
 * letters that fits any screen is never broken (a cell's `overflow-wrap: anywhere` lets a table squeeze its column
 * below it). Code, URLs and text boxes may break anywhere. Each is named with the text around it.
 */
export function wordsCutInTwo(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement
      if (!el || el.closest('code, pre, textarea, .url, script, style, select')) continue
      const text = node.textContent ?? ''
      for (const m of text.matchAll(/\p{L}{2,15}/gu)) {
        const range = document.createRange()
        range.setStart(node, m.index)
        range.setEnd(node, m.index + m[0].length)
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)))
        if (lines.size > 1) found.push(`${m[0]} in "${text.trim().slice(0, 40)}"`)
      }
    }
    return found
  })
}

/** Sizes whose number and unit the browser put on two lines ("153" / "B" in a narrow column, "39" / "KB" in a sentence). */
export function sizesCutFromUnits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (const m of text.matchAll(/\d(?:\.\d)?\s(?:B|KB|MB|GB|TB)\b/g)) {
        const range = document.createRange()
        range.setStart(node, m.index)
        range.setEnd(node, m.index + m[0].length)
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)))
        if (lines.size > 1) found.push(text.slice(Math.max(0, m.index - 10), m.index + m[0].length).trim())
      }
    }
    return found
  })
}
