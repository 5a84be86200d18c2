// n3's parts the pod uses, each from its own file. n3's index loads all of n3 (its store, reasoner and stream
// classes, and with them readable-stream): ~45 ms of CPU at every start for what no first request needs
// (docs/performance.md). Every module of the pod takes n3 from here or from n3-streams.ts, never from 'n3'
// itself: one copy of n3's files, whether run from source or bundled into the executable.

import type * as N3 from 'n3'

const factory = require('n3/lib/N3DataFactory.js') as { default: typeof N3.DataFactory; termToId: typeof N3.termToId }

export const DataFactory = factory.default
export const termToId = factory.termToId
export const Parser = (require('n3/lib/N3Parser.js') as { default: typeof N3.Parser }).default
export type Parser = N3.Parser
export const Writer = (require('n3/lib/N3Writer.js') as { default: typeof N3.Writer }).default
export type Writer = N3.Writer
export const BaseIRI = (require('n3/lib/BaseIRI.js') as { default: typeof N3.BaseIRI }).default
export type BaseIRI = N3.BaseIRI
export type { Term } from 'n3'
