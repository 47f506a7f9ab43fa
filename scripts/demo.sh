#!/usr/bin/env bash
# Sets everything up, builds the package, and runs the main job on the
# embedded example: `editblocks apply` reads examples/reply.md (a model's
# reply) and applies it to a fresh copy of examples/project/ in a temporary
# git repository, printing each block's result, a coloured diff and a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
node scripts/build.mjs

work=$(mktemp -d "${TMPDIR:-/tmp}/editblocks-demo-XXXXXX")
cp -R examples/project/. "$work/"
git -C "$work" init -q
git -C "$work" add -A
git -C "$work" -c user.name=demo -c user.email=demo@example.invalid commit -qm "example project"

printf '\n\033[1m$ editblocks apply --root %s examples/reply.md\033[0m\n\n' "$work"
status=0
node pkg/bin/editblocks.mjs apply --root "$work" examples/reply.md || status=$?
printf '\n\033[1m$ git -C %s status --short\033[0m\n' "$work"
git -C "$work" status --short
exit $status
