// The dashboard's script is built by a build step (src/build-ui.ts), never on a request: a pod from source
// serves what it wrote, and knows when it has not been written.

import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildUi } from '../../src/build-ui.ts'
import { unbuiltScripts } from '../../src/http/static-files.ts'

describe('the build step of the dashboard script', () => {
  test('an output folder without it names the script not built; after the build step, nothing is missing', async () => {
    const out = mkdtempSync(join(tmpdir(), 'solopod-ui-'))
    try {
      expect(unbuiltScripts(join(out, 'static'))).toEqual(['admin/app.ts'])
      const dir = await buildUi(join(import.meta.dir, '..', '..', 'static'), out)
      expect(unbuiltScripts(dir)).toEqual([])
      const js = await Bun.file(join(dir, 'admin', 'app.js')).text()
      expect(js).toContain('data-enhance')
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})
