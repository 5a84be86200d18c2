// Preloaded by bunfig.toml for every `bun test` run: the default test timeout, the end of the shared browser,
// and hearing which refusals the pods send.

import { afterAll, setDefaultTimeout } from 'bun:test'
import { join } from 'node:path'
import { closeSharedBrowser } from './browser/harness.ts'
import { buildUi } from '../src/build-ui.ts'
import { listenForRefusals } from './refusals-sent.ts'

// e2e and browser tests start real servers and Chromium on a 2-core machine shared with other work;
// bunfig.toml has no test-timeout setting, so the default (5 s) is raised here. This reaches only the
// first test file of a run, so `npm test` also passes `--timeout 30000` (which reaches every file).
setDefaultTimeout(30_000)

// After the last test file the one headless Chromium (test/browser/harness.ts) is closed gracefully,
// so its helper processes end with it instead of being killed at process exit.
afterAll(() => closeSharedBrowser(), 30_000)

// The dashboard's script as `npm test`'s pretest builds it, also for a `bun test FILE` run on its own:
// the pods these tests start serve what the build step wrote (src/build-ui.ts).
await buildUi(join(import.meta.dir, '..', 'static'), join(import.meta.dir, '..', 'dist', 'ui'))

// The codes the pods send, for the catalogue's report after `npm test` (test/refusals-sent.ts).
listenForRefusals()
