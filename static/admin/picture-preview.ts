// Profile picture: the chosen file shown before it is uploaded, in the place of the current picture.

export function previewPicture(input: HTMLElement): void {
  if (!(input instanceof HTMLInputElement)) return
  const shown = document.getElementById(input.dataset.preview ?? '')
  if (!(shown instanceof HTMLImageElement)) return
  let url = ''
  input.addEventListener('change', () => {
    const file = input.files?.[0]
    if (url) URL.revokeObjectURL(url)
    url = file && file.type.startsWith('image/') ? URL.createObjectURL(file) : ''
    if (url) {
      shown.src = url
      shown.alt = 'The chosen picture, not uploaded yet'
      shown.hidden = false
    }
  })
}
