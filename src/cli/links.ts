// `solopod links add|list|remove|settings`: share links for people without a WebID (issue 38), made by the running server
// when there is one (through its control socket), otherwise in the stopped pod's database.

import type { Config } from '../config.ts'
import { HttpError } from '../http/errors.ts'
import type { ShareLink } from '../account/share-links.ts'
import { UserError } from '../lib/user-error.ts'
import { requestLinksAction, type LinkOp } from '../server/control-socket.ts'
import { shareLinkActions, type ShareLinkActions, type ToldLink } from '../server/share-link-actions.ts'
import type { ToldLinkSettings } from '../account/link-expiry.ts'
import { readablePath } from '../lib/readable-path.ts'
import { withStoppedPod } from './stopped-pod.ts'

class LinksCommandError extends UserError {}

const ALLOWS_WORDS: Record<ShareLink['allows'], string> = {
  read: 'view and download',
  upload: 'upload only (a file drop)',
  'read-upload': 'view, download and upload',
}
const expiryOf = (l: Pick<ShareLink, 'expiresAt'>) => (l.expiresAt === undefined ? 'never expires' : `expires ${new Date(l.expiresAt).toISOString()}`)

export async function linksCommand(cfg: Config): Promise<void> {
  const [sub, arg] = cfg.args
  if (sub === 'add') return addCommand(cfg, arg!)
  if (sub === 'settings') return settingsCommand(cfg)
  if (sub === 'list') {
    const list = await onPod<ToldLink[]>(cfg, 'list', {}, a => a.list())
    if (list.length === 0) console.error('solopod: no share links; make one with solopod links add PATH')
    const now = Date.now()
    for (const l of list) {
      console.log(
        [
          l.id,
          readablePath(l.path),
          ALLOWS_WORDS[l.allows],
          l.name || '(no name)',
          expiryOf(l) + (l.expiresAt !== undefined && l.expiresAt <= now ? ' (expired)' : ''),
          `${l.uses} uses`,
          ...(l.hasPassword ? ['password'] : []),
          ...(l.maxDownloads !== undefined ? [`${l.downloads ?? 0} of ${l.maxDownloads} downloads`] : []),
        ].join('\t'),
      )
    }
    return
  }
  if (!(await onPod<boolean>(cfg, 'remove', { id: arg }, a => a.remove(arg!))))
    throw new LinksCommandError(`there is no share link ${JSON.stringify(arg)} (see solopod links list)`)
  console.error(`solopod: removed ${arg}; it opens nothing from now on`)
}

/** Prints exactly two lines on stdout, `id=…` and `url=…`, for scripts to read; the rest goes to stderr. */
async function addCommand(cfg: Config, path: string): Promise<void> {
  const password = cfg.linkPasswordFile !== undefined ? await readPasswordFile(cfg.linkPasswordFile) : undefined
  const body = {
    path,
    ...(cfg.expires !== undefined ? { expires: cfg.expires } : {}),
    ...(cfg.linkAllows ? { allows: cfg.linkAllows } : {}),
    ...(cfg.keyName !== undefined ? { name: cfg.keyName } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(cfg.maxDownloads !== undefined ? { maxDownloads: cfg.maxDownloads } : {}),
  }
  const added = await onPod<{ link: ToldLink; url: string }>(cfg, 'add', body, a => a.add(body))
  console.error(
    `solopod: anyone holding this link may ${ALLOWS_WORDS[added.link.allows]} ${readablePath(added.link.path)}, without an account; it ${expiryOf(added.link)}. ` +
      (added.link.hasPassword ? 'It also asks for the password; send that by another way than the link. ' : '') +
      (added.link.maxDownloads !== undefined ? `It allows ${added.link.maxDownloads} full download(s). ` : '') +
      `The URL is shown only now (the pod keeps its hash). Remove it with: solopod links remove ${added.link.id}`,
  )
  console.log(`id=${added.link.id}\nurl=${added.url}`)
}

/**
 * Prints the owner's expiry settings as two lines on stdout, `default-expiry=…` and `max-expiry=…`, after the change
 * the flags ask for (none: as they are). A change bounds new links only: the links already made keep their expiry.
 */
async function settingsCommand(cfg: Config): Promise<void> {
  const change = {
    ...(cfg.defaultExpiry !== undefined ? { defaultExpiry: cfg.defaultExpiry } : {}),
    ...(cfg.maxExpiry !== undefined ? { maxExpiry: cfg.maxExpiry } : {}),
  }
  const told = await onPod<ToldLinkSettings>(cfg, 'settings', change, a => a.settings(change))
  if (Object.keys(change).length > 0) console.error('solopod: link expiry settings saved; they apply to new links, the links already made keep their expiry')
  console.log(`default-expiry=${told.defaultExpiry}\nmax-expiry=${told.maxExpiry}`)
}

/** The password as written to the file, less one trailing newline (what `echo pw > F` adds). */
async function readPasswordFile(file: string): Promise<string> {
  let text: string
  try {
    text = await Bun.file(file).text()
  } catch {
    throw new LinksCommandError(`cannot read the password file ${file}`)
  }
  const password = text.replace(/\r?\n$/, '')
  if (password === '') throw new LinksCommandError(`the password file ${file} is empty: write the link's password in it, or leave out --password-file`)
  return password
}

/** The running server does it (its database is locked to it); without one, this process on the stopped pod. */
async function onPod<R>(cfg: Config, op: LinkOp, body: Record<string, unknown>, local: (a: ShareLinkActions) => Promise<R>): Promise<R> {
  const remote = await requestLinksAction(cfg.dataDir, op, body).catch((err: unknown) => {
    throw new LinksCommandError(err instanceof Error ? err.message : String(err))
  })
  if (remote !== undefined) return remote.answer as R
  return withStoppedPod(cfg.dataDir, `links ${op}`, (store, baseUrl) =>
    // A path or duration the pod refuses is the operator's to correct: its message, exit code 2
    local(shareLinkActions(store, baseUrl, Date.now)).catch((err: unknown) => {
      throw err instanceof HttpError ? new LinksCommandError(err.description) : err
    }),
  )
}
