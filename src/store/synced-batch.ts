// Durability in one place: every resource batch reaches LevelDB with { sync: true }.

/**
 * quadstore calls `batch.write()` without options, so LevelDB would not fsync its log and an
 * acknowledged write could vanish on power loss. We hand quadstore's `preWrite` this wrapper,
 * which makes the final write synchronous (docs/architecture.md, Storage).
 */
export function forceSyncWrite(batch: { write(options?: object): Promise<void> }) {
  const write = batch.write.bind(batch)
  batch.write = (options?: object) => write({ ...options, sync: true })
}
