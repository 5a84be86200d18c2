// Profile: the WebID document's name, picture, note and homepage; POST /.admin/api/profile saves them
// as one N3 Patch (Solid Protocol §5.3.1), the same code the page without JavaScript posts to.

import { api } from './api.ts'
import { clear, h, say, sayError } from './dom.ts'
import { passwordPanel } from './password.ts'
import { picturePanel } from './picture.ts'

interface Field { predicate: string; iri: boolean; value: string | null; values: number }
interface Profile { webid: string; document: string; fields: Record<string, Field> }

const LABELS: Record<string, string> = { name: 'Name', picture: 'Picture (image URL)', note: 'About you', homepage: 'Home page' }

export async function showProfile(view: HTMLElement): Promise<void> {
  const profile = await api<Profile>('GET', '/profile', undefined, 'Reading your profile')
  clear(view)
  const inputs = Object.entries(profile.fields).map(([name, f]) => ({ name, f, input: h('input', { type: f.iri ? 'url' : 'text', id: `profile-${name}`, name }) }))
  for (const { f, input } of inputs) input.value = f.value ?? ''
  const picture = profile.fields.picture?.value
  const form = h('form', {},
    // Any site's image: it learns nothing of where the dashboard is (as the app logos, apps.ts)
    picture ? h('img', { src: picture, alt: 'Your picture', class: 'avatar', referrerpolicy: 'no-referrer' }) : null,
    inputs.map(({ name, input }) => h('div', {}, h('label', { for: input.id }, LABELS[name] ?? name), input)),
    h('button', { type: 'submit' }, 'Save profile'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    void save(inputs).then((changed) => {
      showNameInHeader(inputs.find((i) => i.name === 'name')?.input.value.trim() ?? '')
      return showProfile(view).then(() => say(changed ? 'Profile saved' : 'Nothing changed'))
    }).catch(sayError)
  })
  view.append(h('h2', {}, 'Your profile'), h('p', { class: 'muted' }, 'Shown to anyone who reads your WebID ', h('code', {}, profile.webid)), form, picturePanel(() => showProfile(view)), passwordPanel())
}

/** The server builds the patch and says which field is wrong (its code and description come back in the error). */
async function save(inputs: { name: string; input: HTMLInputElement }[]): Promise<boolean> {
  const fields = Object.fromEntries(inputs.map(({ name, input }) => [name, input.value]))
  return (await api<{ changed: boolean }>('POST', '/profile', { fields }, 'Saving your profile')).changed
}

/** The header says who is signed in by name (admin/dashboard-header.ts drew it); a saved name shows there at once. */
function showNameInHeader(name: string): void {
  const el = document.getElementById('who-name')
  if (!el || name === '') return
  el.replaceWith(h('strong', { id: 'who-name' }, name))
}
