// What a person does on the Files page, as the browser tests do it again and again: make a folder in the folder
// shown, upload files into it with the page's own form. Each waits for the page to show the result.

import type { Page } from 'playwright-core'

/** A folder made in the folder the page shows; waits for the new folder's page (its heading). */
export async function makeFolderHere(page: Page, name: string): Promise<void> {
  await page.getByLabel('Folder name').fill(name)
  await page.getByRole('button', { name: 'Create folder' }).click()
  await page.getByRole('heading', { name, exact: true }).waitFor()
}

export interface UploadedFile {
  readonly name: string
  readonly mimeType: string
  readonly buffer: Buffer
}

/** Files uploaded through the page's upload form into the folder it shows; waits until the first is listed. */
export async function uploadHere(page: Page, files: UploadedFile | readonly UploadedFile[]): Promise<void> {
  const list = Array.isArray(files) ? files : [files as UploadedFile]
  await page.locator('#upload-file').setInputFiles(list)
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('link', { name: list[0]!.name, exact: true }).waitFor()
}
