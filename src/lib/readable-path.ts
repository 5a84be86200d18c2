/** A pod path as people read it: each segment percent-decoded (`/notes%20%C3%A9t%C3%A9/` → `/notes été/`), as every page of the dashboard shows it. */
export function readablePath(path: string): string {
  return path
    .split('/')
    .map(segment => {
      // A segment that is not valid percent-encoding (a lone `%`) is shown as it is written
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
    .join('/')
}

/** The last name of a pod path as people read it (`/trip/Été%20%231/` → `Été #1`); '' for the root. */
export const readableName = (path: string): string => readablePath(path.replace(/\/$/, '').split('/').pop() ?? '')

/** A pod path inside a sentence: from a `/` to the next space, holding at least one percent-escape. */
const ENCODED_PATH = /(?<![\w%])\/[^\s"<>]*%[0-9A-Fa-f]{2}[^\s"<>]*/g

/**
 * A message (a refusal's description) with the pod paths in it as people read them: the layers below the pages
 * name paths as stored (`/%C3%89t%C3%A9/`), the pages and the script show them decoded (`/Été/`).
 */
export const readablePathsIn = (text: string): string => text.replace(ENCODED_PATH, readablePath)
