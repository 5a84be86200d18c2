// The owner's page forms as Elysia schemas, shared by the route plugins of admin/.

import { t } from 'elysia'
import { HttpError } from '../http/errors.ts'
import type { FormFields } from './owner-guard.ts'

export const CsrfForm = t.Object({ csrf: t.Optional(t.String()) })
export const PlainForm = t.Record(t.String(), t.String())
/** A form with repeated fields (an app's folders and their rights, a selection): a repeated name arrives as an array. */
export const ListForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))
export const RevokeForm = t.Object({ csrf: t.Optional(t.String()), id: t.Optional(t.String()), client_id: t.Optional(t.String()) })

/** One field of a sent form, when it came as one value (a refusal page's links are made from it). */
export const fieldOf = (form: FormFields, name: string): string | undefined => {
  const value = form[name]
  return typeof value === 'string' ? value : undefined
}

export const notFound = (what: string) => new HttpError(404, 'not_found', `there is no ${what} with this id`)
