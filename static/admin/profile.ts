// Profile: the WebID document's name, picture, note and homepage, saved as one N3 Patch
// (Solid Protocol §5.3.1) that deletes the values read and inserts the new ones.

import { api, ldp } from './api.ts'
import { clear, h, say, sayError } from './dom.ts'

interface Field { predicate: string; iri: boolean; value: string | null; values: number }
interface Profile { webid: string; document: string; fields: Record<string, Field> }

const LABELS: Record<string, string> = { name: 'Name', picture: 'Picture (image URL)', note: 'About you', homepage: 'Home page' }

const literal = (s: string) => JSON.stringify(s) // a JSON string is a valid Turtle string literal with the same escapes
const term = (f: Field, v: string) => (f.iri ? `<${new URL(v).href}>` : literal(v))

export async function showProfile(view: HTMLElement): Promise<void> {
  const profile = await api<Profile>('GET', '/profile', undefined, 'Reading your profile')
  clear(view)
  const inputs = Object.entries(profile.fields).map(([name, f]) => ({ name, f, input: h('input', { type: f.iri ? 'url' : 'text', id: `profile-${name}`, name }) }))
  for (const { f, input } of inputs) input.value = f.value ?? ''
  const picture = profile.fields.picture?.value
  const form = h('form', {},
    picture ? h('img', { src: picture, alt: 'Your picture', class: 'avatar' }) : null,
    inputs.map(({ name, input }) => h('div', {}, h('label', { for: input.id }, LABELS[name] ?? name), input)),
    h('button', { type: 'submit' }, 'Save profile'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    void save(profile, inputs).then(() => showProfile(view)).then(() => say('Profile saved'), sayError)
  })
  view.append(h('h2', {}, 'Your profile'), h('p', { class: 'muted' }, 'Shown to anyone who reads your WebID ', h('code', {}, profile.webid)), form)
}

async function save(profile: Profile, inputs: { name: string; f: Field; input: HTMLInputElement }[]): Promise<void> {
  const deletes: string[] = []
  const inserts: string[] = []
  for (const { name, f, input } of inputs) {
    const v = input.value.trim()
    if (v === (f.value ?? '')) continue
    if (f.values > 1) throw new Error(`${LABELS[name]}: your profile holds ${f.values} values here; edit it as Turtle in Files`)
    if (v && f.iri) { try { new URL(v) } catch { throw new Error(`${LABELS[name]}: enter a full URL (https://…)`) } }
    if (f.value !== null) deletes.push(`<${profile.webid}> <${f.predicate}> ${term(f, f.value)}.`)
    if (v) inserts.push(`<${profile.webid}> <${f.predicate}> ${term(f, v)}.`)
  }
  if (!deletes.length && !inserts.length) { say('Nothing changed'); return }
  const patch = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:patch a solid:InsertDeletePatch;
  solid:deletes { ${deletes.join(' ')} };
  solid:inserts { ${inserts.join(' ')} }.`
  await ldp('PATCH', profile.document, { headers: { 'content-type': 'text/n3' }, body: patch }, 'Saving your profile')
}
