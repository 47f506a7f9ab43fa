import type { Format } from './parser.js';

/** Shell commands suggested in backticks: `git rm`, `git mv`, `mkdir -p`, `rm -rf`. */
export function detectShellSuggestions(text: string): string[];

/** Instructions for the model, for one edit style. */
export function systemPrompt(format: Format | 'tools' | 'hashline'): string;
