// Small functions over the binding, with their arguments checked here so
// misuse is a TypeError naming the problem (a non-string would trap the module).
import { detectShellSuggestions as rawDetectShellSuggestions, systemPrompt as rawSystemPrompt } from 'editblocks-raw';
import { requireString } from './boundary.js';

/** Shell commands suggested in backticks (`git rm`, `git mv`, `mkdir -p`, `rm -rf`). */
export function detectShellSuggestions(text) {
  return rawDetectShellSuggestions(requireString(text, 'detectShellSuggestions', 'text'));
}

/** The instructions for the model for one edit style. */
export function systemPrompt(kind) {
  return rawSystemPrompt(requireString(kind, 'systemPrompt', 'kind'));
}
