// The owner's files: the Files page (the dashboard opens on it), view, preview, download, edit, upload, new
// folder, rename and move, copy, delete, the selection, the trash; their JSON API. Every read and change goes through
// the operations layer (`deps.resources`) as the owner (owner-acting.ts), decided as an app's request would be.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { uploadFormParts } from '../http/upload-form.ts'
import { ownerGuard, type NextOf } from './owner-guard.ts'
import { backTo } from './owner-page.ts'
import { ListForm, PlainForm, fieldOf } from './model.ts'
import { browseContainer } from './browse.ts'
import { checkRdf } from './check-rdf.ts'
import { createFolder, deleteResource, downloadResource, filesPage, showDeletePage, showFilesPage, uploadFiles } from './files-page.ts'
import { previewFile } from './preview-file.ts'
import { downloadZip } from './download-zip.ts'
import { searchFiles, showSearchPage } from './search-files.ts'
import { showViewPage } from './view-page.ts'
import { showGalleryPage } from './gallery-page.ts'
import { editPage, saveDocument, showEditPage } from './edit-page.ts'
import { moveBody, moveFiles } from './move-files.ts'
import { countFolder, deleteFolder } from './delete-folder.ts'
import { listTrash, moveToTrash, restoreTrashed } from './trash-files.ts'
import { showMovePage, submitMovePage } from './move-page.ts'
import { copyPage, showCopyPage, submitCopyPage } from './copy-page.ts'
import { showDeleteSelected, showMoveSelected, submitDeleteSelected, submitMoveSelected } from './selection-pages.ts'
import { showDeleteTrashed, showEmptyTrash, showTrashPage, submitDeleteTrashed, submitEmptyTrash, submitRestore } from './trash-page.ts'

const YOUR_FILES = backTo(filesPage('/'), 'Your files')
/** A page that opens from the Files page: signed out, the login page comes back to the Files page. */
const FROM_FILES = { returnTo: ADMIN_PATHS.files, next: YOUR_FILES }
const FROM_TRASH = { returnTo: ADMIN_PATHS.trashPage, next: backTo(ADMIN_PATHS.trashPage, 'Back to the trash') }
const FROM_DASHBOARD = { returnTo: ADMIN_PATHS.dashboard, next: YOUR_FILES }

/** The Files page's selection as its GET form sends it: every `item` of the query (a repeated field). */
const itemsOf = (request: Request) => new URL(request.url).searchParams.getAll('item')
// A form's refusal leads back to the folder, the rename or the document it was about
const backToFolder: NextOf = ({ form }) => backTo(filesPage(fieldOf(form, 'path') ?? '/'), 'Back to the folder')
const backToRename: NextOf = ({ form }) => {
  const path = fieldOf(form, 'path')
  return backTo(path ? `${ADMIN_PATHS.move}?path=${encodeURIComponent(path)}` : filesPage('/'), 'Back to Rename')
}
const backToCopy: NextOf = ({ form }) => {
  const path = fieldOf(form, 'path')
  return backTo(path ? copyPage(path) : filesPage('/'), 'Back to Copy', 'Nothing copied')
}
const backToDocument: NextOf = ({ form }) => {
  const path = fieldOf(form, 'path')
  return backTo(path ? editPage(path) : filesPage('/'), 'Back to the document')
}
const selectedFolder: NextOf = ({ request }) => {
  const path = new URL(request.url).searchParams.get('path')
  return backTo(filesPage(path?.startsWith('/') && path.endsWith('/') ? path : '/'), 'Back to the folder')
}

export function filesPlugin(deps: Deps) {
  const cookieOf = (request: Request) => request.headers.get('cookie')
  return (
    new Elysia({ name: 'admin-files' })
      .use(ownerGuard(deps))
      // The dashboard opens on the owner's files
      .get(ADMIN_PATHS.dashboard, ({ request, query }) => showFilesPage(deps, cookieOf(request), query), { ownerPage: FROM_DASHBOARD })
      .get(ADMIN_PATHS.files, ({ request, query }) => showFilesPage(deps, cookieOf(request), query), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.search, ({ request, query }) => showSearchPage(deps, cookieOf(request), query), { ownerPage: FROM_FILES })
      .post(ADMIN_PATHS.newFolder, ({ body }) => createFolder(deps, body), { body: PlainForm, ownerForm: { next: backToFolder } })
      .post(ADMIN_PATHS.upload, ({ request, checkCsrf }) => uploadFiles(deps, uploadFormParts(request), checkCsrf), {
        parse: 'none',
        ownerUpload: { next: YOUR_FILES },
      })
      .get(ADMIN_PATHS.download, ({ query }) => downloadResource(deps, query.path), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.downloadZip, ({ request }) => downloadZip(deps, new URL(request.url).searchParams), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.preview, ({ request, query }) => previewFile(deps, request, query.path), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.view, ({ request, query }) => showViewPage(deps, request, query.path), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.gallery, ({ request, query }) => showGalleryPage(deps, cookieOf(request), query), { ownerPage: FROM_FILES })
      .get(ADMIN_PATHS.delete, ({ request, query }) => showDeletePage(deps, cookieOf(request), query.path), { ownerPage: FROM_FILES })
      .post(ADMIN_PATHS.delete, ({ request, body }) => deleteResource(deps, request, body), { body: PlainForm, ownerForm: { next: YOUR_FILES } })
      // The Files page's selection: the items arrive as repeated `item` fields (read from the URL: every one of them)
      .get(ADMIN_PATHS.deleteSelected, ({ request }) => showDeleteSelected(deps, cookieOf(request), itemsOf(request)), {
        ownerPage: { returnTo: ADMIN_PATHS.files, next: selectedFolder },
      })
      .post(ADMIN_PATHS.deleteSelected, ({ body }) => submitDeleteSelected(deps, body), {
        body: ListForm,
        ownerForm: { next: backTo(filesPage('/'), 'Your files', 'Nothing deleted') },
      })
      .get(
        ADMIN_PATHS.moveSelected,
        ({ request }) => showMoveSelected(deps, cookieOf(request), itemsOf(request), new URL(request.url).searchParams.get('in')),
        {
          ownerPage: { returnTo: ADMIN_PATHS.files, next: selectedFolder },
        },
      )
      .post(ADMIN_PATHS.moveSelected, ({ body }) => submitMoveSelected(deps, body), { body: ListForm, ownerForm: { next: YOUR_FILES } })
      .get(ADMIN_PATHS.trashPage, ({ request, query }) => showTrashPage(deps, cookieOf(request), query), {
        ownerPage: { returnTo: ADMIN_PATHS.trashPage, next: YOUR_FILES },
      })
      .post(ADMIN_PATHS.trashRestore, ({ body }) => submitRestore(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.trashPage, 'Back to the trash', 'Nothing restored') },
      })
      .get(ADMIN_PATHS.trashDelete, ({ request, query }) => showDeleteTrashed(deps, cookieOf(request), query.id), { ownerPage: FROM_TRASH })
      .post(ADMIN_PATHS.trashDelete, ({ body }) => submitDeleteTrashed(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.trashPage, 'Back to the trash', 'Nothing deleted') },
      })
      .get(ADMIN_PATHS.trashEmpty, ({ request }) => showEmptyTrash(deps, cookieOf(request)), { ownerPage: FROM_TRASH })
      .post(ADMIN_PATHS.trashEmpty, ({ body }) => submitEmptyTrash(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.trashPage, 'Back to the trash', 'Nothing deleted') },
      })
      .get(ADMIN_PATHS.move, ({ request, query }) => showMovePage(deps, cookieOf(request), query), { ownerPage: FROM_FILES })
      .post(ADMIN_PATHS.move, ({ body }) => submitMovePage(deps, body), { body: PlainForm, ownerForm: { next: backToRename } })
      .get(ADMIN_PATHS.copy, ({ request, query }) => showCopyPage(deps, cookieOf(request), query), { ownerPage: FROM_FILES })
      .post(ADMIN_PATHS.copy, ({ request, body }) => submitCopyPage(deps, cookieOf(request), body), { body: PlainForm, ownerForm: { next: backToCopy } })
      .get(ADMIN_PATHS.edit, ({ request, query }) => showEditPage(deps, request, query), { ownerPage: { returnTo: ADMIN_PATHS.edit, next: YOUR_FILES } })
      .post(ADMIN_PATHS.edit, ({ request, body }) => saveDocument(deps, request, body), { body: PlainForm, ownerForm: { next: backToDocument } })
      .guard({ ownerApi: true }, api =>
        api
          .get(`${ADMIN_PATHS.api}/browse`, async ({ query }) => jsonResponse(await browseContainer(deps, query)))
          .get(ADMIN_PATHS.searchApi, async ({ query }) => jsonResponse(await searchFiles(deps, query)))
          // Rename and move: one atomic step, ACLs and everything inside a folder carried along
          .post(
            ADMIN_PATHS.moveApi,
            async ({ body }) => {
              const { from, to } = moveBody(body)
              return jsonResponse(await moveFiles(deps, from, to))
            },
            { body: t.Unknown() },
          )
          // A folder with everything in it: the count the confirmation names, then the delete of exactly that many
          .get(ADMIN_PATHS.treeCount, async ({ query }) => jsonResponse(await countFolder(deps, query.path)))
          .delete(ADMIN_PATHS.tree, async ({ query }) => jsonResponse(await deleteFolder(deps, query.path, query.count)))
          // The trash: the dashboard's Delete keeps what it deleted 30 days (store/trash.ts)
          .get(ADMIN_PATHS.trash, async () => jsonResponse(await listTrash(deps)))
          .post(ADMIN_PATHS.trash, async ({ body }) => jsonResponse(await moveToTrash(deps, body)), { body: t.Unknown() })
          .post(`${ADMIN_PATHS.trash}/:id/restore`, async ({ params }) => jsonResponse(await restoreTrashed(deps, params.id)))
          .post(`${ADMIN_PATHS.api}/check-rdf`, async ({ body }) => jsonResponse(await checkRdf(body)), { body: t.Unknown() }),
      )
  )
}
