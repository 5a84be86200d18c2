// What the pages tell an owner who has no password yet, or forgot it: the one way to a new setup link.

import { html, HOME_LINK, type NextSteps } from './html-page.ts'
import { ADMIN_PATHS, loginPageFor } from './pod-paths.ts'

/** `solopod setup-link` works while the server runs (through its control socket) and when it is stopped. */
export const NEW_SETUP_LINK_HINT = html`For a new link, run <code>solopod setup-link</code> with the server's <code>--data</code> directory
on the machine that runs the pod (from a source checkout: <code>npm run solopod -- setup-link</code>) and open the link it prints.`

/** Error pages of the first run (no application involved): a new link, or signing in once the password is set. */
export const FIRST_RUN_NEXT: NextSteps = {
  hint: html`${NEW_SETUP_LINK_HINT} If the password is set already, sign in with it.`,
  links: [{ href: loginPageFor(ADMIN_PATHS.dashboard), label: 'Sign in' }, HOME_LINK],
}
