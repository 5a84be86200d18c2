// What the owner's pages say once a share link or a grant has been taken back. Several pages lead back from the
// same forms (Links, Grants, Share, Shared by me), and the words must promise the same thing wherever they land.

export const LINK_REMOVED = 'Link removed: it opens nothing from now on'
export const GRANT_REVOKED = 'Grant revoked: the access ends with the next request'
