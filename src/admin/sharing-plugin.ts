// Sharing: the share page (who may do what, each change one rewrite of the ACL document through the operations
// layer), access grants (page and API), the ACL view, the "why may X do Y?" explanation and the WebID check.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerGuard, type NextOf } from './owner-guard.ts'
import { backTo } from './owner-page.ts'
import { ListForm, PlainForm, fieldOf } from './model.ts'
import { filesPage } from './files-page.ts'
import { addShareEntry, removeShareEntry, sharePage, showInheritPage, showSharePage, useInheritedAccess } from './share-page.ts'
import { typedQuery } from './share-form.ts'
import { readAclView } from './acl-view.ts'
import { explainAccess } from './access-explain.ts'
import { checkWebId } from './webid-check.ts'
import { changeLinkSettings } from '../account/link-expiry.ts'
import { createLinkFromForm, removeLinkFromForm, saveLinkSettingsFromForm, showLinksPage } from './links-page.ts'
import { showSharedByMe } from './shared-by-me-page.ts'
import { createGrant, listGrants, readGrant, revokeGrant } from './grants.ts'
import { showGrantsPage, submitGrantForm, submitGrantRevoke } from './grants-page.ts'

const GrantQuery = t.Object({ grantee: t.Optional(t.String()), registration: t.Optional(t.String()) })
const AccessQuery = t.Object({
  agent: t.Optional(t.String()),
  resource: t.Optional(t.String()),
  origin: t.Optional(t.String()),
  client: t.Optional(t.String()),
  issuer: t.Optional(t.String()),
})

/** A share form's refusal: back to sharing of the path it was about, nothing changed, the form as it was typed. */
const shareNotChanged: NextOf = ({ form }) => backTo(sharePage(fieldOf(form, 'path') ?? '/') + typedQuery(form), 'Back to sharing', 'Access not changed')
const linkNotMade: NextOf = ({ form }) => backTo(sharePage(fieldOf(form, 'path') ?? '/'), 'Back to sharing', 'Link not created')
const backToSharing: NextOf = ({ query }) => backTo(sharePage(query.path ?? '/'), 'Back to sharing')
const LinkSettingsBody = t.Object({ defaultExpiry: t.Optional(t.String()), maxExpiry: t.Optional(t.String()) }, { additionalProperties: false })
const LINK_SETTINGS_FIELDS = { defaultExpiry: 'defaultExpiry', maxExpiry: 'maxExpiry' }
const SHARE_PAGE = { returnTo: ADMIN_PATHS.share, next: backTo(filesPage('/'), 'Your files') }
const GRANTS_PAGE = { returnTo: ADMIN_PATHS.grantsPage }

export function sharingPlugin(deps: Deps) {
  const { grants, decider } = deps
  const cookieOf = (request: Request) => request.headers.get('cookie')
  return (
    new Elysia({ name: 'admin-sharing' })
      .use(ownerGuard(deps))
      .get(ADMIN_PATHS.share, ({ request, query }) => showSharePage(deps, request, query), { ownerPage: SHARE_PAGE })
      .post(ADMIN_PATHS.shareAdd, ({ request, body }) => addShareEntry(deps, request, body), { body: PlainForm, ownerForm: { next: shareNotChanged } })
      .post(ADMIN_PATHS.shareRemove, ({ body }) => removeShareEntry(deps, body), { body: PlainForm, ownerForm: { next: shareNotChanged } })
      .get(ADMIN_PATHS.shareInherit, ({ request, query }) => showInheritPage(deps, request, query), {
        ownerPage: { returnTo: ADMIN_PATHS.share, next: backToSharing },
      })
      .post(ADMIN_PATHS.shareInherit, ({ body }) => useInheritedAccess(deps, body), { body: PlainForm, ownerForm: { next: shareNotChanged } })
      // Share links: made on the share page, listed and removed on their own page too
      .get(ADMIN_PATHS.sharedByMe, ({ request, query }) => showSharedByMe(deps, request.headers.get('cookie'), query.done), {
        ownerPage: { returnTo: ADMIN_PATHS.sharedByMe },
      })
      .get(ADMIN_PATHS.links, ({ request, query }) => showLinksPage(deps, request, query), { ownerPage: { returnTo: ADMIN_PATHS.links } })
      .post(ADMIN_PATHS.linksAdd, ({ request, body }) => createLinkFromForm(deps, request, body), {
        body: PlainForm,
        ownerForm: { next: linkNotMade },
      })
      .post(ADMIN_PATHS.linksRemove, ({ body }) => removeLinkFromForm(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.links, 'Share links', 'Link not removed') },
      })
      .post(ADMIN_PATHS.linksSettings, ({ body }) => saveLinkSettingsFromForm(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.links, 'Share links', 'Settings not saved') },
      })
      // Grants: the page's forms call the API's own functions
      .get(ADMIN_PATHS.grantsPage, ({ request, query }) => showGrantsPage(deps, cookieOf(request), query.done), { ownerPage: GRANTS_PAGE })
      .post(ADMIN_PATHS.grantsPage, ({ body }) => submitGrantForm(deps, body), {
        body: ListForm,
        ownerForm: { next: backTo(ADMIN_PATHS.grantsPage, 'Back to grants', 'Grant not created') },
      })
      .post(ADMIN_PATHS.grantsRevoke, ({ body }) => submitGrantRevoke(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.grantsPage, 'Back to grants') },
      })
      .guard({ ownerApi: true }, api =>
        api
          // The owner's expiry settings of share links, as `solopod links settings` tells and changes them
          .get(ADMIN_PATHS.linkSettings, async () => jsonResponse(await changeLinkSettings(deps.store, {})))
          .put(ADMIN_PATHS.linkSettings, async ({ body }) => jsonResponse(await changeLinkSettings(deps.store, body, LINK_SETTINGS_FIELDS)), {
            body: LinkSettingsBody,
          })
          .get(`${ADMIN_PATHS.api}/acl`, async ({ query }) => jsonResponse(await readAclView(deps, query)))
          // Access grants: refusals name the offending fields (`violations`)
          .post(ADMIN_PATHS.grants, async ({ request }) => createGrant(deps, grants, request.headers.get('content-type'), await request.text()), {
            parse: 'none',
          })
          .get(ADMIN_PATHS.grants, ({ query }) => listGrants(grants, query), { query: GrantQuery })
          .get(`${ADMIN_PATHS.grants}/:id`, ({ params, request }) => readGrant(grants, params.id, request.headers.get('accept')))
          .delete(`${ADMIN_PATHS.grants}/:id`, ({ params }) => revokeGrant(grants, params.id))
          .get(ADMIN_PATHS.access, async ({ query }) => jsonResponse(await explainAccess(deps, decider, query)), { query: AccessQuery })
          .get(ADMIN_PATHS.webidCheck, async ({ query }) => jsonResponse(await checkWebId(deps, query.webid ?? '')), {
            query: t.Object({ webid: t.Optional(t.String()) }),
          }),
      )
  )
}
