// "What may this WebID / key / the public do here, and why?" — the server's one decision path
// (GET /.admin/api/access), with the rule or grant behind each mode, or why nothing applied.

import { api } from './api.ts'
import { h, sayError } from './dom.ts'

type Ground = { source: 'wac'; acl: string; authorization: string; inheritedFrom?: string } | { source: 'grant'; grant: string; scope: string; as: string; via?: string }
interface Explanation { modes: string[]; because: Record<string, Ground[]>; whyNot?: string[] }

const ground = (g: Ground) => g.source === 'wac'
  ? h('span', {}, 'rule ', h('code', {}, g.authorization), ' of ', h('code', {}, g.acl), g.inheritedFrom ? ` (inherited from ${g.inheritedFrom})` : '')
  : h('span', {}, 'grant ', h('code', {}, g.grant), ` (${g.scope}${g.via ? `, via ${g.via}` : ''})`)

export function checkAccessPanel(resourceUrl: string): HTMLElement {
  const agent = h('input', { type: 'text', id: 'check-agent', placeholder: 'public, or https://alice.example/profile/card#me', autocomplete: 'off' })
  const answer = h('div', { id: 'check-answer', 'aria-live': 'polite' })
  const form = h('form', {}, h('label', { for: 'check-agent' }, 'Agent: a WebID, a key URL, or "public"'), agent, h('button', { type: 'submit' }, 'Check access'), answer)
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const who = agent.value.trim()
    if (!who) { sayError(new Error('Agent: enter a WebID, a key URL, or public')); return }
    void api<Explanation>('GET', `/access?agent=${encodeURIComponent(who)}&resource=${encodeURIComponent(resourceUrl)}`, undefined, 'Checking access').then((x) => {
      answer.replaceChildren(
        h('p', {}, x.modes.length ? `${who} may: ${x.modes.join(', ')}` : `${who} may do nothing here.`),
        h('ul', {}, Object.entries(x.because).map(([mode, grounds]) => h('li', {}, `${mode}: `, grounds.flatMap((g, i) => [i ? '; ' : '', ground(g)])))),
        x.whyNot?.length ? h('ul', {}, x.whyNot.map((w) => h('li', { class: 'muted' }, w))) : '')
    }, sayError)
  })
  return h('section', { class: 'panel', 'aria-labelledby': 'check-h' }, h('h3', { id: 'check-h' }, 'Check access: who may do what here, and why'), form)
}
