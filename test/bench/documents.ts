// Bodies the workloads send and serve, shared with the bare ceiling server.

/** About 1 KB of Turtle: what a small profile or note weighs. */
export const DOC_1K = (() => {
  const lines = ['@prefix dc: <http://purl.org/dc/terms/>.', '@prefix ex: <http://example.org/ns#>.', '<#it> a ex:Note;']
  for (let i = 0; lines.join('\n').length < 960; i++) lines.push(`  ex:p${i} "value number ${i} of a small benchmark note"@en;`)
  lines.push('  dc:title "bench".')
  return lines.join('\n')
})()

/** DOC_1K as saved after its `n`-th edit: one triple (the title) differs, as when a person edits a note. */
export const editedDoc1k = (n: number) => DOC_1K.replace('dc:title "bench".', `dc:title "bench, edit ${n}".`)
