"""The aider peer for benches/parse.mjs: parses one reply of SEARCH/REPLACE
blocks with aider's own find_original_update_blocks (aider-chat, installed
with `pip install --no-deps`), loaded the way benches/aider_replace.py loads
do_replace: aider's source file, unchanged, with its heavy imports stubbed.

Reads {"reply": text, "min_ms": n} as JSON on stdin; parses the reply until
min_ms have passed (after one warm-up run) and prints {"ms": mean ms per
parse, "blocks": edits found, "runs": n} as JSON.
"""
import json
import sys
import time

from aider_replace import load_editblock_coder


def main():
    coder = load_editblock_coder()
    job = json.load(sys.stdin)
    reply = job["reply"]
    fence = ("```", "```")

    def parse():
        return sum(1 for edit in coder.find_original_update_blocks(reply, fence) if edit[0] is not None)

    blocks = parse()
    runs = 0
    start = time.perf_counter()
    while True:
        parse()
        runs += 1
        elapsed = (time.perf_counter() - start) * 1000
        if elapsed >= job.get("min_ms", 0):
            break
    json.dump({"ms": elapsed / runs, "blocks": blocks, "runs": runs}, sys.stdout)


if __name__ == "__main__":
    main()
