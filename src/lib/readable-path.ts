/** A pod path as people read it: each segment percent-decoded (`/notes%20%C3%A9t%C3%A9/` → `/notes été/`); the dashboard and its script-free pages show the same. */
export function readablePath(path: string): string {
  return path.split('/').map((segment) => {
    // A segment that is not valid percent-encoding (a lone `%`) is shown as it is written
    try { return decodeURIComponent(segment) } catch { return segment }
  }).join('/')
}
