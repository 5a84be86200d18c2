// The base of every error that is the operator's to fix (a bad flag, a data directory in use or open
// to others, a wrong export target …): the CLI prints its message after `solopod:` and exits 2, never a stack.

export class UserError extends Error {}
