// The owner's picture: an image stored at /profile/picture.<ext>, readable by anyone (a profile picture
// is shown to whoever reads the WebID, as the card is), and linked from the WebID with vcard:hasPhoto.
// Each step is the write an app would make with LDP requests, through the operations layer as the owner.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { ownerWebIdOf } from '../config.ts'
import { bareType } from '../lib/preview-kind.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { saveProfile } from './profile.ts'
import { NO_PRECONDITIONS } from '../resources/preconditions.ts'
import { ownerActing, whenMissing } from './owner-acting.ts'
import type { FormPart } from '../http/upload-form.ts'

type PictureDeps = Pick<Deps, 'cfg' | 'resources'>

/** Image types every browser shows in an `<img>`; never SVG (a document that may hold script). */
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024

const tooLarge = () => new HttpError(413, 'payload_too_large', `a picture may be at most ${formatBytes(MAX_PICTURE_BYTES)}`)

/** A body whose Content-Length says it is too large is refused before it is read. */
export function checkPictureLength(contentLength: string | null): void {
  if (Number(contentLength ?? 0) > MAX_PICTURE_BYTES) throw tooLarge()
}

/** The body, read only up to the limit: a larger one is refused before it is all in memory. */
export async function readPicture(body: ReadableStream<Uint8Array> | null): Promise<Blob> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = body?.getReader()
  for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) {
    size += r.value.byteLength
    if (size > MAX_PICTURE_BYTES) {
      await reader!.cancel()
      throw tooLarge()
    }
    chunks.push(r.value)
  }
  return new Blob(chunks as Uint8Array<ArrayBuffer>[])
}

/** Stores the picture, makes it public, links it from the WebID; returns its URL. Refusals change nothing. */
export async function setProfilePicture(deps: PictureDeps, contentType: string, bytes: Blob): Promise<string> {
  const type = bareType(contentType)
  const ext = EXTENSIONS[type]
  if (!ext) throw new HttpError(415, 'unsupported_media_type', `a picture must be a PNG, JPEG, GIF or WebP image, not ${type || 'an unnamed type'}`)
  if (bytes.size === 0) throw new HttpError(400, 'invalid_request', 'choose an image file for your picture')
  const path = `/profile/picture.${ext}`
  const who = ownerActing(deps.cfg.baseUrl)
  await deps.resources.put(who, path, type, new Uint8Array(await bytes.arrayBuffer()))
  const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#owner> a acl:Authorization; acl:agent <${ownerWebIdOf(deps.cfg.baseUrl)}>; acl:accessTo <picture.${ext}>; acl:mode acl:Read, acl:Write, acl:Control.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <picture.${ext}>; acl:mode acl:Read.`
  await deps.resources.put(who, `${path}.acl`, 'text/turtle', acl)
  const url = deps.cfg.baseUrl + path
  await saveProfile(deps, { picture: url })
  // A picture of another type put here before would stay public, linked from nowhere: it goes (its ACL with it)
  for (const other of Object.values(EXTENSIONS).filter(e => e !== ext)) {
    await deps.resources.delete(who, `/profile/picture.${other}`, NO_PRECONDITIONS).catch(whenMissing(undefined))
  }
  return url
}

/**
 * The picture from the form without JavaScript (multipart/form-data): the CSRF field comes first (the page
 * puts it before the file input), so the owner is checked before a byte of the image is read.
 */
export async function uploadProfilePicture(
  deps: PictureDeps,
  parts: AsyncIterable<FormPart>,
  checkOwner: (csrf: string | undefined) => Promise<void>,
): Promise<void> {
  let csrf: string | undefined
  let stored = false
  for await (const part of parts) {
    if (part.kind === 'field') {
      if (part.name === 'csrf') csrf = part.value
      continue
    }
    await checkOwner(csrf)
    if (part.name !== 'picture' || part.filename === '' || stored) {
      await part.body.cancel()
      continue
    }
    await setProfilePicture(deps, part.mimeType, await readPicture(part.body))
    stored = true
  }
  if (!stored) {
    await checkOwner(csrf)
    throw new HttpError(400, 'no_file', 'choose an image file for your picture')
  }
}
