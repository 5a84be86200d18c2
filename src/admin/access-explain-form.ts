// "Why may X do Y?" on the share page: a GET form (agent, the page's path) and the pod's own decision
// (access-explain.ts, the function the resource server enforces) rendered as the answer, without JavaScript.

import { personLabel } from './person-label.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { explainAccess } from './access-explain.ts'
import { linkReason, linksOpening } from './links-page.ts'

type Explained = Awaited<ReturnType<typeof explainAccess>>
type Ground = Explained['because'][string][number]

const ground = (g: Ground): SafeHtml =>
  g.source === 'wac'
    ? html`rule <code>${g.authorization}</code> of <code>${g.acl}</code>${g.inheritedFrom ? ` (inherited from ${g.inheritedFrom})` : ''}`
    : html`grant <code>${g.grant}</code> (${g.scope}${g.via ? `, via ${g.via}` : ''})`

function answer(who: SafeHtml | string, x: Explained): SafeHtml {
  return html`<div id="check-answer" role="status"><p><strong>${x.modes.length ? html`${who} may: ${x.modes.join(', ')}` : html`${who} may do nothing here.`}</strong></p>
${Object.keys(x.because).length ? html`<ul>${Object.entries(x.because).map(([mode, grounds]) => html`<li>${mode}: ${grounds.map((g, i) => html`${i ? '; ' : ''}${ground(g)}`)}</li>`)}</ul>` : ''}
${x.whyNot?.length ? html`<ul>${x.whyNot.map(w => html`<li class="muted">${w}</li>`)}</ul>` : ''}</div>`
}

/** The form, and the answer when the page was opened with `agent=`; a bad agent is said beside the field. */
export async function explainForm(
  deps: Pick<Deps, 'cfg' | 'decider' | 'store' | 'now' | 'people'>,
  path: string,
  query: Record<string, unknown>,
): Promise<SafeHtml> {
  const agent = typeof query.agent === 'string' ? query.agent.trim() : ''
  let shown: SafeHtml | string = ''
  if (agent) {
    try {
      const isWebId = /^https?:\/\//.test(agent)
      if (isWebId) deps.people.learn([agent])
      shown = answer(isWebId ? personLabel(deps.people, agent) : agent, await explainAccess(deps, deps.decider, { agent, resource: deps.cfg.baseUrl + path }))
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err
      shown = html`<p class="field-error" id="check-answer" role="alert">Agent: ${err.description}</p>`
    }
  }
  // Whoever holds a share link is an agent of its own, whatever WebID they have: said beside every answer
  const links = await linksOpening(deps, path)
  const byLinks = html`<h3 id="check-links-h">Share links</h3>${
    links.length === 0
      ? html`<p class="muted" id="check-links">No share link opens this item.</p>`
      : html`<p>Besides, anyone holding one of these links may use it here without an account, until it expires or you remove it:</p>
<ul id="check-links">${links.map(l => linkReason(l, path, deps.now()))}</ul>`
  }`
  return html`<section class="panel" aria-labelledby="check-h" id="check"><h2 id="check-h">Why may someone do something here?</h2>
<p class="muted">The pod's own decision for this item, with the rule or grant behind each thing they may do.</p>
<form method="get" action="${ADMIN_PATHS.share}#check" class="row-form"><input type="hidden" name="path" value="${path}">
<div><label for="check-agent">Agent: a WebID, a key URL, or "public"</label><input type="text" id="check-agent" name="agent" value="${agent}" placeholder="public, or https://alice.example/profile/card#me" autocomplete="off" spellcheck="false"></div>
<div><button type="submit">Check access</button></div></form>${shown}${byLinks}</section>`
}
