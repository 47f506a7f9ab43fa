#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a bounded time (default 20 s
# each) from the seed corpus kept in fuzz/corpus/<target>/; exits non-zero on
# the first crash (a panic, an overflow, a failed invariant), leaving the
# input in fuzz/artifacts/<target>/. New inputs the run finds go to a scratch
# folder, so the kept corpus stays small (copy an input there by hand when it
# is worth keeping, e.g. after fixing the crash it found).
#
# cargo-fuzz needs a nightly compiler; on a stable toolchain RUSTC_BOOTSTRAP=1
# lets it use the nightly flags. It is installed project-locally (into
# $EDITBLOCKS_TOOLS or .tools/) when missing. No sanitizer: the crate has no
# unsafe code; the targets look for panics and broken invariants, built with
# debug assertions (integer overflow checks on).
#
# Usage: scripts/fuzz.sh [seconds-per-target] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:-20}"
shift || true
TOOLS="${EDITBLOCKS_TOOLS:-$PWD/.tools}"
CARGO_FUZZ="$TOOLS/bin/cargo-fuzz"
say() { printf '\033[1m[fuzz]\033[0m %s\n' "$*"; }

if [ ! -x "$CARGO_FUZZ" ]; then
  say "installing cargo-fuzz into $TOOLS (takes a few minutes)"
  cargo install cargo-fuzz --version 0.13.2 --root "$TOOLS"
fi

export RUSTC_BOOTSTRAP=1
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  mapfile -t TARGETS < <(cd fuzz && "$CARGO_FUZZ" list)
fi

say "building ${TARGETS[*]}"
(cd fuzz && "$CARGO_FUZZ" build --sanitizer none --debug-assertions)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in "${TARGETS[@]}"; do
  say "$target: ${SECONDS_PER_TARGET}s"
  mkdir -p "$scratch/$target"
  rm -rf "fuzz/artifacts/$target"
  (cd fuzz && "$CARGO_FUZZ" run --sanitizer none --debug-assertions "$target" "$scratch/$target" "corpus/$target" -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 2>&1 |
    grep -E 'stat::number_of_executed_units|stat::peak_rss|ERROR|panicked|SUMMARY|Test unit written' || true)
  # cargo fuzz's exit status is lost in the pipe: a crash leaves an artifact.
  if compgen -G "fuzz/artifacts/$target/*" > /dev/null; then
    say "$target crashed: $(ls fuzz/artifacts/$target/)"
    say "replay: (cd fuzz && RUSTC_BOOTSTRAP=1 $CARGO_FUZZ run --sanitizer none --debug-assertions $target artifacts/$target/<file>)"
    exit 1
  fi
done
say "no crash in ${#TARGETS[@]} targets"
