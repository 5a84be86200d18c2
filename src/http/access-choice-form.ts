// The owner's choice of what an app may reach, as a form that works without script: the consent page
// asks it, the dashboard's page changes it; both read it back with policy/app-scope.ts readAccessChoice.

import { html, type SafeHtml } from './html-page.ts'
import { readablePath } from '../lib/readable-path.ts'

export interface FolderRow {
  /** A stored (percent-encoded) folder path. */
  readonly path: string
  /** `write` is read and write. */
  readonly right: 'none' | 'read' | 'write'
  /** Why it is proposed: the app named it, or a class registered there. */
  readonly because?: string
}

/** The owner's three answers, least first: who they are only, some folders, everything. */
export type AccessKind = 'identity' | 'folders' | 'full'

/**
 * The fieldset with `chosen` checked. `identity`: "Only confirm who I am" is offered (an app that signs
 * people in; a script's credential has no use for it, and its form leaves it out).
 */
export function renderAccessChoice(rows: readonly FolderRow[], chosen: AccessKind, o: { identity?: boolean } = {}): SafeHtml {
  const { identity = true } = o
  const option = (value: string, text: string, selected: string) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${text}</option>`
  const rights = (selected: string) =>
    html`${option('none', 'Not given', selected)}${option('read', 'Read', selected)}${option('write', 'Read and write', selected)}`
  const radio = (value: AccessKind) => html`<input type="radio" name="access" value="${value}"${value === chosen ? html` checked` : ''}>`
  return html`<fieldset class="access-choice">
<legend>What may it reach in your pod?</legend>
${identity ? html`<p><label>${radio('identity')} <strong>Only confirm who I am</strong>: nothing in your pod beyond what is public</label></p>` : ''}
<p><label>${radio('folders')} <strong>Allow access only to</strong> these folders (never to sharing settings):</label></p>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Folder</th><th scope="col">Access</th></tr></thead><tbody>
${rows.map(
  (
    r,
    i,
  ) => html`<tr><td data-label="Folder"><code>${readablePath(r.path)}</code>${r.because ? html` <span class="muted">(${r.because})</span>` : ''}<input type="hidden" name="folder" value="${r.path}"></td>
<td data-label="Access"><label class="visually-hidden" for="right-${i}">Access to ${readablePath(r.path)}</label><select id="right-${i}" name="right">${rights(r.right)}</select></td></tr>`,
)}
<tr><td data-label="Folder"><label for="new-folder">Another folder</label> <input type="text" id="new-folder" name="new_folder" placeholder="for example /Recipes/" autocomplete="off"></td>
<td data-label="Access"><label class="visually-hidden" for="new-right">Access to that folder</label><select id="new-right" name="new_right">${rights('write')}</select></td></tr>
</tbody></table></div>
<p class="muted">A folder that does not exist yet is made for it.${identity ? ' With no folder given, it only confirms who you are.' : ''}</p>
<p><label>${radio('full')} <strong>Allow full access</strong>: everything you can reach — read, change and share</label></p>
</fieldset>`
}
