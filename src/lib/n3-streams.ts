// n3's stream classes (export and import only), from their own files like the rest of n3 (n3.ts): they bring
// readable-stream, which a pod that never exports or imports does not load.

import type * as N3 from 'n3'

export const StreamParser = (require('n3/lib/N3StreamParser.js') as { default: typeof N3.StreamParser }).default
export const StreamWriter = (require('n3/lib/N3StreamWriter.js') as { default: typeof N3.StreamWriter }).default
