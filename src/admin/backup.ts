// The owner's backup: POST /.admin/backup answers with the pod as one tar.gz archive (the export
// folder of `solopod export`, from one database snapshot; deps.backups makes it); GET /.admin/api/backup
// says when the last backup was made.

import type { Deps } from '../deps.ts'

export function makeBackups(deps: Pick<Deps, 'backups'>) {
  async function download(): Promise<Response> {
    const { name, contentType, body } = await deps.backups.download()
    return new Response(body, {
      headers: {
        'content-type': contentType,
        'content-disposition': `attachment; filename="${name}.tar.gz"`,
        'cache-control': 'no-store',
      },
    })
  }

  async function lastBackup() {
    return { last: (await deps.backups.last()) ?? null }
  }

  return { download, lastBackup }
}
