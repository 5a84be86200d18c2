// A second file of the same name gets a number, as people's file managers do: `photo.jpg`, then
// `photo (2).jpg`, `photo (3).jpg`. Pure: the operations layer (POST), the owner's upload form and the
// dashboard script all mint names this way.

/** The extension kept at the end: the last `.` that is neither the first character nor followed by nothing. */
const EXTENSION = /(\.[^.]+)$/

/** `name` (as people read it, not percent-encoded) with the number `n` before its extension; `n` 1 is `name` itself. */
export function numberedName(name: string, n: number): string {
  if (n <= 1) return name
  const dot = name.search(EXTENSION)
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  return `${stem} (${n})${ext}`
}

/** How many numbered names are tried before giving up on a readable one (a folder of 1,000 `photo.jpg` is no longer read by name). */
export const NUMBERED_NAMES_TRIED = 1000
