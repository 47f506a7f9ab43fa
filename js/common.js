// Small functions over the binding, with their arguments checked here so
// misuse is a TypeError naming the problem (a non-string would trap the module).
// A namespace import: editblocks/lite's module binds no systemPrompt (and its entry leaves it out).
import * as raw from 'editblocks-raw';
import { requireString } from './boundary.js';

/** Shell commands suggested in backticks (`git rm`, `git mv`, `mkdir -p`, `rm -rf`). */
export function detectShellSuggestions(text) {
  return raw.detectShellSuggestions(requireString(text, 'detectShellSuggestions', 'text'));
}

/** The instructions for the model for one edit style. */
export function systemPrompt(kind) {
  return raw.systemPrompt(requireString(kind, 'systemPrompt', 'kind'));
}
