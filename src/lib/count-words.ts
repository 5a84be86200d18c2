// How many of something, as the pages say it: "1 item", "2,001 items". One spelling for every page and message,
// so a count reads the same on the files page, the trash, the share page and in a refusal.

/** `n` and the noun, in the plural unless `n` is 1; thousands grouped ("2,001 items"). */
export const countOf = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`
