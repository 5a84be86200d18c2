// Markdown shown rendered on a file's page (marked), made safe for the owner's origin: raw HTML in the text is
// shown as text (never markup), links only to http(s), mailto or the pod's own relative paths, and images only
// of the pod itself, or remote ones when the owner asked for them ("Show images": a remote image tells its
// server when the page was opened). Only marked's own elements reach the page, their attributes escaped.

import { Marked, type Tokens } from 'marked'
import { escapeHtml as escape, SafeHtml } from '../http/html-page.ts'

/** Links people may follow from a rendered document; anything else (javascript:, data:, vbscript:) is shown as text. */
const SAFE_LINK = /^(https?:|mailto:|\/|\.{0,2}\/|#|[^:/?#]+(?:[/?#]|$))/i
const REMOTE = /^[a-z][a-z0-9+.-]*:/i

export interface RenderedMarkdown {
  readonly html: SafeHtml
  /** Remote images left out (shown as links) because the owner did not ask for them. */
  readonly remoteImages: number
}

/** The HTML of `text`, safe to put in the owner's page; `showRemoteImages`: the owner clicked "Show images". */
export function renderMarkdown(text: string, showRemoteImages: boolean): RenderedMarkdown {
  let remoteImages = 0
  const marked = new Marked({
    gfm: true,
    async: false,
    renderer: {
      // Raw HTML, block or inline, is text: no element of the document's own reaches the page
      html: ({ text: raw }: Tokens.HTML | Tokens.Tag) => escape(raw),
      link({ href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens)
        if (!SAFE_LINK.test(href)) return inner
        return `<a href="${escape(href)}"${title ? ` title="${escape(title)}"` : ''} rel="noopener noreferrer nofollow">${inner}</a>`
      },
      image({ href, title, text: alt }: Tokens.Image) {
        const remote = REMOTE.test(href)
        if (remote && !/^https?:/i.test(href)) return escape(alt)
        if (remote && !showRemoteImages) {
          remoteImages++
          return `<a href="${escape(href)}" rel="noopener noreferrer nofollow" class="remote-image">[image: ${escape(alt || href)}]</a>`
        }
        return `<img src="${escape(href)}" alt="${escape(alt)}"${title ? ` title="${escape(title)}"` : ''} loading="lazy" referrerpolicy="no-referrer">`
      },
    },
  })
  // Every element is marked's own and every text and attribute escaped above: safe to insert as it is
  const html = new SafeHtml(marked.parse(text) as string)
  return { html, remoteImages }
}
