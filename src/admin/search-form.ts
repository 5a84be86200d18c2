// The search box of the owner's Files pages: a plain GET form to the results page (search-files.ts).

import { html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'

export const searchForm = (q = '') =>
  html`<form class="search" role="search" method="get" action="${ADMIN_PATHS.search}"><label for="search-q" class="visually-hidden">Search your pod by name</label><input type="search" id="search-q" name="q" value="${q}" placeholder="Search by name" maxlength="200" autocomplete="off"> <button type="submit" class="secondary">Search</button></form>`
