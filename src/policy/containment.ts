// Containment by URL (Solid Protocol §3.1: the slash-separated path is the container hierarchy).

/**
 * `/a/b` → `/a/`, `/a/b/` → `/a/`, root → undefined.
 * String slicing, not `new URL`: targets are already canonical (origin + path, no query) and every decision
 * walks this up to the root.
 */
export function parentContainerOf(url: string): string | undefined {
  const pathStart = url.indexOf('/', url.indexOf('://') + 3)
  const end = url.endsWith('/') ? url.length - 1 : url.length
  if (pathStart < 0 || end <= pathStart) return undefined
  return url.slice(0, url.lastIndexOf('/', end - 1) + 1)
}
