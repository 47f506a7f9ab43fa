// What a host's failed read becomes, for the applier (js/host-driver.js) and
// the live previews (js/preview.js) alike: one rule, so a preview gives the
// applier's verdict on a file it could not read.

export const messageOf = (e) => String(e && e.message ? e.message : e);

// A host refuses a path that a symbolic link leads out of the root by throwing
// an error with code 'EDITBLOCKS_PATH_ESCAPE': the core reports it as
// `skipped` / `path-escape`, like a path the core itself refuses.
export const errorEntry = (e) => (e && e.code === 'EDITBLOCKS_PATH_ESCAPE' ? { error: messageOf(e).replace(/^editblocks: /, ''), kind: 'path-escape' } : { error: messageOf(e) });
