// Bundled for the browser by httpsig.test.ts: the npm RFC 9421 signer as `window.signMessage`.

import './httpsig-buffer-global.ts' // first: the library uses Node's global Buffer
import { httpbis } from 'http-message-signatures'

;(globalThis as unknown as { signMessage: typeof httpbis.signMessage }).signMessage = httpbis.signMessage
