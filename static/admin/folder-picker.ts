// The Move page's folder picker (src/admin/folder-picker.ts): its links go into a folder by loading the page again,
// which knows only the name the page was given; the script adds the name typed since, so it is not lost on the way.

export function keepTypedName(picker: HTMLElement): void {
  const field = document.getElementById('move-name')
  if (!(field instanceof HTMLInputElement)) return
  picker.addEventListener('click', event => {
    const link = event.target instanceof Element ? event.target.closest('a') : null
    if (!link || field.value.trim() === '' || field.value === field.defaultValue) return
    const url = new URL(link.href)
    url.searchParams.set('name', field.value.trim())
    link.href = url.href
  })
}
