// Node's Buffer as a browser global (Bun bundles its `buffer` polyfill) for http-message-signatures.

import { Buffer } from 'node:buffer'

;(globalThis as unknown as { Buffer: typeof Buffer }).Buffer = Buffer
