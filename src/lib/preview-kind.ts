// Which stored files a page shows in place (the owner's dashboard, a visitor's pages), and which are only
// offered for download. HTML and SVG are never in the list: shown from the pod's own origin they could run.

export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text'

/** The media type without parameters, lower case (`Text/Plain; charset=utf-8` → `text/plain`). */
export const bareType = (type: string) => type.split(';', 1)[0]!.trim().toLowerCase()

export function previewKind(contentType: string): PreviewKind | undefined {
  const type = bareType(contentType)
  if (/^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(type)) return 'image'
  if (type.startsWith('video/')) return 'video'
  if (type.startsWith('audio/')) return 'audio'
  if (type === 'application/pdf') return 'pdf'
  if (/^text\/(plain|markdown|turtle|csv|n3)$/.test(type) || /^application\/(json|ld\+json|n-triples|n-quads)$/.test(type)) return 'text'
  return undefined
}

/** Text the owner edits as plain text in the page (RDF has its own editor that checks the syntax). */
export const isEditableText = (contentType: string) => /^text\/(plain|markdown)$/.test(bareType(contentType))

/** Larger text is offered for download only: a page holding megabytes of text helps nobody. */
export const MAX_PREVIEW_TEXT_BYTES = 1024 * 1024
