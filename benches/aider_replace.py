"""The aider peer for benches/apply.mjs: applies the same edits with aider's
own do_replace (aider-chat, installed with `pip install --no-deps`).

aider's editblock_coder module cannot be imported without aider's
dependencies (the package __init__ needs `packaging`, and the module imports
base_coder, which pulls in litellm and more). do_replace and the helpers it
calls use only the standard library, so this script loads that one source
file with the modules it names at import time replaced by empty stand-ins;
the code that runs is aider's, unchanged.

Reads a job as JSON on stdin: {"runs": [{"name", "files": {path: text},
"edits": [[path, search, replace], ...]}]}; prints {"name": {"ms", "failed",
"digest"}} as JSON.
"""
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import time
import types


def load_editblock_coder():
    """aider's editblock_coder module, loaded from its source file alone."""
    spec = importlib.util.find_spec("aider")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("aider-chat is not installed")
    pkg_dir = list(spec.submodule_search_locations)[0]
    source = os.path.join(pkg_dir, "coders", "editblock_coder.py")

    def package(name, path):
        mod = types.ModuleType(name)
        mod.__path__ = [path]
        sys.modules[name] = mod
        return mod

    aider = package("aider", pkg_dir)
    coders = package("aider.coders", os.path.join(pkg_dir, "coders"))
    stand_ins = {
        "aider.utils": {},
        "aider.dump": {"dump": lambda *a, **k: None},
        "aider.coders.base_coder": {"Coder": type("Coder", (), {})},
        "aider.coders.editblock_prompts": {"EditBlockPrompts": type("EditBlockPrompts", (), {})},
    }
    for name, attrs in stand_ins.items():
        mod = types.ModuleType(name)
        mod.__dict__.update(attrs)
        sys.modules[name] = mod
    aider.utils = sys.modules["aider.utils"]
    aider.dump = sys.modules["aider.dump"]
    coders.base_coder = sys.modules["aider.coders.base_coder"]
    spec = importlib.util.spec_from_file_location("aider.coders.editblock_coder", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_do_replace():
    return load_editblock_coder().do_replace


def main():
    do_replace = load_do_replace()
    job = json.load(sys.stdin)
    fence = ("```", "```")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        # do_replace checks that the file exists on disk (to decide about creating it).
        existing = os.path.join(tmp, "exists.py")
        open(existing, "w").close()
        for run in job["runs"]:
            files = dict(run["files"])
            failed = 0
            start = time.perf_counter()
            for path, search, replace in run["edits"]:
                new = do_replace(existing, files[path], search, replace, fence)
                if new is None:
                    failed += 1
                else:
                    files[path] = new
            ms = (time.perf_counter() - start) * 1000
            digest = hashlib.sha256("\0".join(files[p] for p in sorted(files)).encode()).hexdigest()
            out[run["name"]] = {"ms": ms, "failed": failed, "digest": digest}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
