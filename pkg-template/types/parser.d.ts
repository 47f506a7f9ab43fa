export type Format = 'edit-repl' | 'anchored' | 'search-replace';
