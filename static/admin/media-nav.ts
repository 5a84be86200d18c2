// The viewer's Previous and Next (src/admin/view-page.ts) by the arrow keys and by a swipe on a phone: each only
// follows the page's own rel="prev"/rel="next" link, so it goes where the link without script goes.

/** A swipe: this far sideways, and more sideways than up or down (a scroll is not a swipe). */
const SWIPE_PX = 60

export function enhanceMediaNav(nav: HTMLElement): void {
  const go = (rel: 'prev' | 'next') => nav.querySelector<HTMLAnchorElement>(`a[rel="${rel}"]`)?.click()
  document.addEventListener('keydown', event => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    // In a field, or on a film or sound whose own controls take the arrows (to seek), the keys are theirs
    const target = event.target as HTMLElement | null
    if (target?.closest('input, textarea, select, video, audio, [contenteditable]')) return
    if (event.key === 'ArrowLeft') go('prev')
    else if (event.key === 'ArrowRight') go('next')
  })
  let start: { x: number; y: number } | undefined
  document.addEventListener(
    'touchstart',
    event => {
      const t = event.touches[0]
      start = event.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : undefined
    },
    { passive: true },
  )
  document.addEventListener(
    'touchend',
    event => {
      const t = event.changedTouches[0]
      if (!start || !t) return
      const dx = t.clientX - start.x
      const dy = t.clientY - start.y
      start = undefined
      if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < 2 * Math.abs(dy)) return
      // The finger moves the picture: swiping it to the left brings the next one in
      go(dx < 0 ? 'next' : 'prev')
    },
    { passive: true },
  )
}
