// The Content-Disposition of a file the pod hands out (a download, a preview shown inline).

/** RFC 6266 §4.3: the name, UTF-8 encoded, and an ASCII fallback. */
export const contentDisposition = (kind: 'inline' | 'attachment', name: string) =>
  `${kind}; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`
