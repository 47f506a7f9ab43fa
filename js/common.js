// Small functions that are plain re-exports of the binding.
export { detectShellSuggestions, systemPrompt } from 'editblocks-raw';
