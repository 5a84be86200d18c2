// Where an n3 parser error is: 1-based line and column for the 400 a client reads.

interface N3Token {
  line: number
  start: number
  end: number
  endLine?: number
}
interface N3ErrorContext {
  token?: N3Token
  line?: number
  previousToken?: N3Token
}

/**
 * 1-based line and column of an n3 syntax error. Parser errors carry the offending token;
 * lexer errors only the previous token, so the bad text starts at the next non-blank after it.
 */
export function n3ErrorPosition(err: unknown, body: string): { line: number; column: number } {
  const ctx = (err as { context?: N3ErrorContext }).context ?? {}
  if (ctx.token) return { line: ctx.token.line, column: ctx.token.start + 1 }
  const starts = lineStarts(body)
  const line = ctx.line ?? 1
  const prev = ctx.previousToken
  const prevLine = prev?.endLine ?? prev?.line
  let offset = prev && prevLine === line ? (starts[line - 1] ?? 0) + prev.end : (starts[line - 1] ?? 0)
  while (offset < body.length && (body[offset] === ' ' || body[offset] === '\t')) offset++
  return { line, column: offset - (starts[line - 1] ?? 0) + 1 }
}

/** Offsets where each line begins; line breaks as Turtle counts them (\n, \r\n, \r). */
function lineStarts(body: string): number[] {
  const starts = [0]
  for (const m of body.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length)
  return starts
}
