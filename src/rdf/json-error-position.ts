// Line and column of a JSON syntax error: Bun's JSON.parse names the problem but not where it is.

import { HttpError } from '../http/errors.ts'
import { JSON_LD } from './media-types.ts'

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const LITERALS = ['true', 'false', 'null']

/** 1-based position of the first character RFC 8259 does not allow there; undefined when the text is valid JSON. */
export function jsonErrorPosition(text: string): { line: number; column: number } | undefined {
  let i = 0
  const fail = (): never => {
    throw new SyntaxAt(i)
  }
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const take = (c: string) => {
    if (text[i] !== c) fail()
    i++
  }
  const string = () => {
    take('"')
    for (;;) {
      const c = text[i]
      if (c === undefined || c < ' ') fail()
      i++
      if (c === '"') return
      if (c !== '\\') continue
      const e = text[i]
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5
      else if (e !== undefined && e !== 'u' && '"\\/bfnrt'.includes(e)) i++
      else fail()
    }
  }
  const members = (close: string, member: () => void) => {
    i++
    ws()
    if (text[i] === close) {
      i++
      return
    }
    for (;;) {
      member()
      ws()
      if (text[i] !== ',') return take(close)
      i++
    }
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{')
      return members('}', () => {
        ws()
        string()
        ws()
        take(':')
        value()
      })
    if (c === '[') return members(']', value)
    if (c === '"') return string()
    NUMBER.lastIndex = i
    const n = NUMBER.exec(text)
    if (n) {
      i += n[0].length
      return
    }
    const literal = LITERALS.find(l => text.startsWith(l, i))
    if (!literal) fail()
    i += literal!.length
  }
  try {
    value()
    ws()
    if (i < text.length) fail()
    return undefined
  } catch (err) {
    // Anything but our marker (a stack overflow on absurd nesting) leaves the parser's own message.
    return err instanceof SyntaxAt ? lineColumn(text, err.offset) : undefined
  }
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let start = 0
  for (const m of text.slice(0, offset).matchAll(/\r\n|\r|\n/g)) {
    line++
    start = m.index + m[0].length
  }
  return { line, column: offset - start + 1 }
}

/** Runs `parse`; a JSON-LD body that is not JSON gets the line and column of its error in the 400. */
export async function withJsonPosition<T>(mediaType: string, text: string, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse()
  } catch (err) {
    if (mediaType !== JSON_LD || !(err instanceof HttpError) || err.code !== 'invalid_rdf') throw err
    const at = jsonErrorPosition(text)
    if (!at) throw err
    throw new HttpError(400, 'invalid_rdf', `JSON syntax error at line ${at.line}, column ${at.column}: ${err.description.replace(/^invalid JSON: /, '')}`, {
      cause: err,
    })
  }
}
