// Between items on one line of a page ("4 items · Who can access your pod · History of your pod"): bound to the item
// before it by a no-break space, so a narrow screen breaks the line after it and never starts a line with it (a "·"
// at a line's start reads as a bullet of what follows).

export const SEPARATOR = '\u00a0· '
