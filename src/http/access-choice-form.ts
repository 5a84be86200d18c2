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


/** The fieldset; `limited`: "only these folders" is the checked choice (else full access). */
export function renderAccessChoice(rows: readonly FolderRow[], limited: boolean): SafeHtml {
  const option = (value: string, text: string, chosen: string) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`
  const rights = (chosen: string) => html`${option('none', 'Not given', chosen)}${option('read', 'Read', chosen)}${option('write', 'Read and write', chosen)}`
  return html`<fieldset class="access-choice">
<legend>What may it reach in your pod?</legend>
<p><label><input type="radio" name="access" value="full"${limited ? '' : html` checked`}> <strong>Allow full access</strong>: everything you can reach — read, change and share</label></p>
<p><label><input type="radio" name="access" value="folders"${limited ? html` checked` : ''}> <strong>Allow access only to</strong> these folders (never to sharing settings):</label></p>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Folder</th><th scope="col">Access</th></tr></thead><tbody>
${rows.map((r, i) => html`<tr><td data-label="Folder"><code>${readablePath(r.path)}</code>${r.because ? html` <span class="muted">(${r.because})</span>` : ''}<input type="hidden" name="folder" value="${r.path}"></td>
<td data-label="Access"><label class="visually-hidden" for="right-${i}">Access to ${readablePath(r.path)}</label><select id="right-${i}" name="right">${rights(r.right)}</select></td></tr>`)}
<tr><td data-label="Another folder"><label for="new-folder">Another folder</label> <input type="text" id="new-folder" name="new_folder" placeholder="for example /Recipes/" autocomplete="off"></td>
<td data-label="Access"><label class="visually-hidden" for="new-right">Access to that folder</label><select id="new-right" name="new_right">${rights('write')}</select></td></tr>
</tbody></table></div>
<p class="muted">A folder that does not exist yet is made for it.</p>
</fieldset>`
}
