// Where a person can go after an error page of the OP: the app's flow cannot be resumed from here.

import { HOME_LINK, type NextSteps } from '../http/html-page.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'

/** RFC 6749 §4.1.2.1: these errors are shown here and not sent back to the app, so say how to start again. */
export const APP_FLOW_NEXT: NextSteps = {
  hint:
    'If an application sent you here, go back to it and sign in again from there: it was not told about this error. ' + 'To manage your pod, sign in below.',
  links: [{ href: loginPageFor(ADMIN_PATHS.dashboard), label: 'Sign in' }, HOME_LINK],
}
