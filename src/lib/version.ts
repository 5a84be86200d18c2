// The version of solopod: package.json's, bundled in (the executable has no package.json beside it).

import pkg from '../../package.json' with { type: 'json' }

export const VERSION: string = pkg.version
