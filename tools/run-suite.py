#!/usr/bin/env python3
"""Runs suites of a build with the environment meson test gives them, on a
machine without meson (one that only runs the build, a GPU machine say), or
many times in a row.

    tools/run-suite.py cuda                           # build/, once
    tools/run-suite.py --build build-126 --runs 20 cuda
    tools/run-suite.py --runs 50 --set GST_CHECKS=test_seeks_and_state_changes cuda

The suites' commands and environments come from the build's own
description (BUILD/meson-info/intro-tests.json, written by meson setup), with
the source and build folders it names replaced by where they are now, so
that a build copied elsewhere runs as it is. A run whose suite fails prints
its output and the runs stop there, unless --keep-going; one that exits 77
(meson's skip) is skipped. Prints a line a run and a closing
'N passed, N failed, N skipped'.
"""
import argparse
import json
import os
import subprocess
import sys
import time

PREPENDED = ("LD_LIBRARY_PATH", "PATH", "PYTHONPATH")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="+", help="test names, as meson test lists them")
    ap.add_argument("--build", default="build", help="the build folder (build)")
    ap.add_argument("--source", default=".", help="the source folder (.)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each suite (1)")
    ap.add_argument("--set", action="append", default=[], metavar="K=V",
                    help="an environment variable set for every run, over the suite's")
    ap.add_argument("--keep-going", action="store_true",
                    help="go on after a failed run")
    ap.add_argument("--log", help="a file that gets the output of every run")
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    source = os.path.abspath(args.source)
    info_dir = os.path.join(build, "meson-info")
    try:
        with open(os.path.join(info_dir, "meson-info.json")) as f:
            dirs = json.load(f)["directories"]
        with open(os.path.join(info_dir, "intro-tests.json")) as f:
            tests = {t["name"]: t for t in json.load(f)}
    except OSError as e:
        sys.exit("%s: no meson description of a build there (%s)" % (build, e))

    def here(s):
        # the build folder lies inside the source folder: replace it first
        return s.replace(dirs["build"], build).replace(dirs["source"], source)

    missing = [s for s in args.suites if s not in tests]
    if missing:
        sys.exit("no such suite in %s: %s (there: %s)" % (
            build, " ".join(missing), " ".join(sorted(tests))))
    extra = dict(kv.split("=", 1) for kv in args.set)
    log = open(args.log, "a") if args.log else None
    passed = failed = skipped = 0
    for name in args.suites:
        t = tests[name]
        env = dict(os.environ)
        for k, v in t["env"].items():
            v = here(v)
            # meson puts the build's library folders before the caller's
            if k in PREPENDED and env.get(k):
                v = v + os.pathsep + env[k]
            env[k] = v
        env.update(extra)
        cmd = [here(c) for c in t["cmd"]]
        for run in range(1, args.runs + 1):
            start = time.monotonic()
            try:
                p = subprocess.run(cmd, env=env, cwd=t["workdir"] or build,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   timeout=t["timeout"])
                rc, out = p.returncode, p.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired as e:
                rc, out = "timeout", (e.stdout or b"").decode(errors="replace")
            took = time.monotonic() - start
            ok = rc in (0, 77)
            passed += rc == 0
            skipped += rc == 77
            failed += not ok
            print("%s run %d/%d: %s (%.1f s)" % (name, run, args.runs,
                  "ok" if rc == 0 else "skipped" if ok else "FAILED, %s" % rc,
                  took), flush=True)
            if log:
                log.write("==== %s run %d: %s\n%s\n" % (name, run, rc, out))
            if not ok:
                sys.stdout.write(out[-6000:])
                if not args.keep_going:
                    break
        if failed and not args.keep_going:
            break
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
