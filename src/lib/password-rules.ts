// The owner password's length rules: checked by the account (setup, `passwd`, the dashboard's change) and
// shown by the forms, the dashboard's script included (so this file imports nothing).

export const MIN_PASSWORD_LENGTH = 8
export const MAX_PASSWORD_LENGTH = 1024

export function checkPasswordStrength(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  return undefined
}
