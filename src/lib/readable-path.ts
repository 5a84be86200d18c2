/** A pod path as people read it: each segment percent-decoded (`/notes%20%C3%A9t%C3%A9/` → `/notes été/`), as every page of the dashboard shows it. */
export function readablePath(path: string): string {
  return path.split('/').map((segment) => {
    // A segment that is not valid percent-encoding (a lone `%`) is shown as it is written
    try { return decodeURIComponent(segment) } catch { return segment }
  }).join('/')
}

/** The last name of a pod path as people read it (`/trip/Été%20%231/` → `Été #1`); '' for the root. */
export const readableName = (path: string): string => readablePath(path.replace(/\/$/, '').split('/').pop() ?? '')
