// The Files page's order (files-page.ts sortForm): a new choice is sent at once, without pressing Sort. The pod
// remembers it (a cookie), so the button stays for pages without the script.

export function sortOnChange(form: HTMLElement): void {
  if (!(form instanceof HTMLFormElement)) return
  const key = form.elements.namedItem('sort')
  // A new key starts in its natural direction (names A to Z, newest first would surprise): the order resets
  if (key instanceof HTMLSelectElement) {
    key.addEventListener('change', () => {
      const order = form.elements.namedItem('order')
      if (order instanceof HTMLSelectElement) order.value = 'asc'
    })
  }
  form.addEventListener('change', () => form.requestSubmit())
}
