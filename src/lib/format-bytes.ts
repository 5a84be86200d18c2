/**
 * A size as people read it (binary units, one decimal below 10): the dashboard and its script-free pages show the same
 * figures. The number and its unit are one word (a non-breaking space): a narrow column or a line's end never parts them.
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n}\u00a0B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(v < 10 ? 1 : 0)}\u00a0${units[i]}`
}
