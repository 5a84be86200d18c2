// How a WebID reads on the owner's pages: the person's name and picture when their profile has been read
// (account/person-cards.ts), else the WebID itself. A name is what its profile claims — anyone may call themselves
// "Alice" — so the WebID's host stays beside it and the WebID is one click away (the name links to it, its title shows it).

import type { PersonCards } from '../account/person-cards.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'

/** A WebID or any other agent IRI as written, breakable on a phone. */
export const agentCode = (agent: string): SafeHtml => html`<code>${breakableUrl(agent)}</code>`

/** The page asks `people.learn` for every WebID it shows first: names read meanwhile appear on the next visit. */
export function personLabel(people: PersonCards, webid: string): SafeHtml {
  const card = people.peek(webid)
  if (card?.name === undefined) return agentCode(webid)
  const host = URL.canParse(webid) ? new URL(webid).host : ''
  const picture = card.picture
    ? html`<img class="avatar-small" src="${card.picture}" alt="" width="24" height="24" loading="lazy" referrerpolicy="no-referrer"> `
    : ''
  return html`<span class="person">${picture}<a href="${webid}" title="${webid}" rel="noreferrer">${card.name}</a> <span class="muted">(${host})</span></span>`
}

/**
 * How a page names an agent it lists (a share page's entry, who made a change, a person shared with, a grantee):
 * someone's WebID (http or https, not the owner's) by their person label; undefined for the owner and for what
 * is no WebID (a key, a URN), which each page words its own way. One decision for every page.
 */
export function agentLabel(people: PersonCards, agent: string, owner: string): SafeHtml | undefined {
  return agent !== owner && /^https?:\/\//.test(agent) ? personLabel(people, agent) : undefined
}
