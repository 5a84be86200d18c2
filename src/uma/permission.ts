// What a UMA permission ticket asks for and a UMA access token grants: shared by the AS, the RS and the decision.

/** One permission of a UMA access token (UMA Federated Authorization §4.1: resource id + scopes). */
export interface UmaPermission {
  readonly resource: string
  /** WAC mode names: `read`, `write`, `append`, `control`. */
  readonly modes: readonly string[]
}
