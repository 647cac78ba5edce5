#!/usr/bin/env python3
# Runs gst-launch-1.0 pipelines of every element under valgrind's memcheck,
# in system memory and in memory:OpenCL chains, and fails on any definite
# leak or invalid read or write that comes from our code.
#
# Copyright (C) 2026 the gstclfilters authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Usage: tools/valgrind.py [--build DIR] [--keep DIR] [--scenarios] [NAME...]

Each pipeline runs once without valgrind first, which fills the kernel
caches (a kernel build under valgrind takes minutes) and checks that the
chains negotiate memory:OpenCL, then once under memcheck with
tests/valgrind.supp.  An error is ours when, walking its stack from the
allocation or the bad access outwards, our plugin comes before any frame
of the OpenCL implementation; GLib and GStreamer frames only pass the
call on.  The script prints one line per pipeline and exits non-zero if
any error is ours or left unsuppressed.

--scenarios runs cases of tests/scenarios.py (TARGET:SCENARIO) instead:
seeks, reverse playback and state changes on decoded clips, with frames
in flight, which gst-launch-1.0 cannot do."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import clcases  # noqa: E402

# System memory out of every chain (a bare fakesink would take
# memory:OpenCL), small frames and few of them: PoCL under valgrind runs
# tens of times slower
SRC = "videotestsrc num-buffers=4"
CAPS = "video/x-raw,width=64,height=48"
# the three-element chain, run zero-copy and on the copy path
CHAIN = (f"{SRC} ! {CAPS},format=NV12 ! clboxblur diameter=3 ! clsobel ! "
         "clepsilon ! video/x-raw ! fakesink")

# name, pipeline, what must happen (system memory, memory:OpenCL between
# the elements, or an element error), extra env; after one pipeline of each
# element of the plugin (element_pipelines())
PIPELINES = [
    ("boxblur-i420", f"{SRC} ! {CAPS},format=I420 ! clboxblur diameter=3 "
     "variant=reference ! fakesink", "sys", {}),
    ("chain", CHAIN, "cl", {}),
    ("chain-copy", CHAIN, "cl", {"GST_CL_NO_ZERO_COPY": "1"}),
    ("composite-chain", "clcomposite name=c ! clboxblur ! clintegral ! "
     f"video/x-raw ! fakesink {SRC} ! {CAPS},format=NV12 ! clboxblur ! "
     f"c.sink_0 {SRC} pattern=ball ! {CAPS},format=NV12 ! clepsilon ! "
     "c.sink_1", "cl", {}),
    # the error paths: the context and the elements taken down half made
    ("bad-device", f"{SRC} ! {CAPS},format=NV12 ! clboxblur ! "
     "clsobel device-index=99 ! fakesink", "error", {}),
    ("bad-device-name", f"{SRC} ! {CAPS},format=NV12 ! clepsilon ! "
     "fakesink", "error", {"GST_CL_DEVICE": "no such device"}),
]

# Cases of tests/scenarios.py, on decoded clips: flushes, reverse playback
# and state changes through READY and NULL with frames in flight; and those
# tests/clcases.py names on each element of the plugin
SCENARIO_CASES = [
    ("chain", "seek-storm-unsynced"), ("chain", "null-cycles"),
    ("chain", "property-changes"),
]
# Debian's own Python, which has python3-gi
PYTHON = "/usr/bin/python3"

# The OpenCL implementation underneath: an error whose stack reaches one of
# these before our code is theirs (PoCL's JIT, its threads, the ICD loader).
OPENCL_OBJS = ("libpocl", "libLLVM", "libclang", "libOpenCL", "libhwloc")
OURS = "libgstclfilters"
KINDS = ("Leak_DefinitelyLost", "InvalidRead", "InvalidWrite", "InvalidFree",
         "MismatchedFree")


def element_pipelines(described):
    """A pipeline of each element of the plugin (clcases.describe()),
    with its settings and format from tests/clcases.py; an element of
    several inputs gets a 40x30 overlay in the others."""
    pipelines = []
    for name, d in described.items():
        settings = clcases.extra(d, name, "valgrind")
        fmt = clcases.extra(d, name, "valgrind_format")
        pads = d["inputs"]
        if len(pads) == 1:
            desc = (f"{SRC} ! {CAPS},format={fmt} ! {name} {settings} ! "
                    "fakesink")
        else:
            desc = (f"{name} name=c {settings} ! fakesink {SRC} ! "
                    f"{CAPS},format={fmt} ! c.{pads[0]} " + " ".join(
                        f"{SRC} pattern=ball ! video/x-raw,format={fmt},"
                        f"width=40,height=30 ! c.{pad}" for pad in pads[1:]))
        pipelines.append((name[2:] if name.startswith("cl") else name,
                          " ".join(desc.split()), "sys", {}))
    return pipelines


def valgrind_cmd(xml_file):
    return ["valgrind", "--tool=memcheck", "--leak-check=full",
            "--show-leak-kinds=definite", "--errors-for-leak-kinds=definite",
            "--num-callers=50", "--child-silent-after-fork=yes",
            "--suppressions=" + os.path.join(ROOT, "tests", "valgrind.supp"),
            "--xml=yes", "--xml-file=" + xml_file]


def owner(frames):
    """Whose error this is, walking from the innermost frame outwards."""
    for obj, fn in frames:
        if OURS in obj:
            return "ours"
        if any(o in obj for o in OPENCL_OBJS):
            return "opencl"
    return "other"


def parse(xml_file):
    errors = []
    root = ET.parse(xml_file).getroot()
    for err in root.iter("error"):
        kind = err.findtext("kind")
        if kind not in KINDS:
            continue
        stack = err.find("stack")
        frames = [(f.findtext("obj") or "", f.findtext("fn") or "??")
                  for f in stack.iter("frame")]
        what = err.findtext("what") or err.findtext("xwhat/text") or kind
        errors.append((kind, owner(frames), what, frames))
    return errors


def memcheck(name, cmd, env, keep, expect_exit=0):
    """One program under memcheck; whether it ran clean and exited as it
    does without valgrind."""
    xml_file = os.path.join(keep, name + ".xml")
    vg = subprocess.run(valgrind_cmd(xml_file) + cmd, env=env,
                        capture_output=True, text=True, timeout=3600)
    errors = parse(xml_file)
    ours = [e for e in errors if e[1] == "ours"]
    status = "ok" if vg.returncode == expect_exit and not errors else "FAIL"
    print(f"{name}: {status} (exit {vg.returncode}, {len(ours)} ours, "
          f"{len(errors) - len(ours)} unsuppressed in the libraries)",
          flush=True)
    for kind, who, what, frames in errors:
        print(f"  {kind} [{who}]: {what}")
        for obj, fn in frames[:14]:
            print(f"    {fn}  ({os.path.basename(obj)})")
    if vg.returncode != expect_exit:
        print(vg.stdout[-2000:] + vg.stderr[-2000:])
    elif cmd[0] == PYTHON:
        # and what the scenario found, slowed down tens of times
        print("  scenario: " + vg.stdout.strip())
    return status == "ok"


def run_pipeline(name, pipeline, mode, extra_env, env, keep):
    env = dict(env, **extra_env)
    warm = subprocess.run(["gst-launch-1.0", "-v"] + pipeline.split(),
                          env=env, capture_output=True, text=True,
                          timeout=300)
    if (warm.returncode != 0) != (mode == "error"):
        print(f"{name}: exit {warm.returncode} without valgrind:\n"
              f"{warm.stdout}{warm.stderr}")
        return False
    if mode == "cl" and "memory:OpenCL" not in warm.stdout:
        print(f"{name}: the chain did not negotiate memory:OpenCL")
        return False
    return memcheck(name, ["gst-launch-1.0", "-q"] + pipeline.split(), env,
                    keep, warm.returncode)


def run_scenario(target, scenario, clips, env, keep):
    """A case of tests/scenarios.py: seeks and state changes with frames in
    flight, which gst-launch-1.0 cannot do."""
    name = f"{target}:{scenario}"
    case = [PYTHON, os.path.join(ROOT, "tests", "scenarios.py"), "--case",
            target, scenario] + clips
    warm = subprocess.run(case, env=env, capture_output=True, text=True,
                          timeout=300)
    if warm.returncode != 0 or '"issues": []' not in warm.stdout:
        print(f"{name}: fails without valgrind: {warm.stdout}"
              f"{warm.stderr[-2000:]}")
        return False
    env = dict(env, CL_SCENARIO_TIMEOUT_SCALE="20",
               # Python's own allocator hides blocks from memcheck
               PYTHONMALLOC="malloc")
    return memcheck(name.replace(":", "-"), case, env, keep)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--keep", help="directory for valgrind's XML reports")
    parser.add_argument("--scenarios", action="store_true",
                        help="run cases of tests/scenarios.py instead")
    parser.add_argument("names", nargs="*",
                        help="pipelines (or TARGET:SCENARIO) to run (all)")
    args = parser.parse_args()

    keep = args.keep or tempfile.mkdtemp(prefix="clfilters-valgrind-")
    os.makedirs(keep, exist_ok=True)
    build = os.path.abspath(args.build)
    env = dict(os.environ,
               GST_PLUGIN_PATH_1_0=os.path.join(build, "gst"),
               GST_REGISTRY_1_0=os.path.join(build, "tests",
                                             "registry-valgrind.bin"),
               XDG_CACHE_HOME=os.path.join(build, "tests", "cache-valgrind"),
               # plain malloc, so that memcheck sees every block
               G_SLICE="always-malloc", G_DEBUG="gc-friendly",
               GST_DEBUG="*:1",
               # PoCL's one-thread CPU device, the same with and without
               # valgrind (under which the threaded one falls back to it),
               # so that the run outside it fills the right kernel cache
               POCL_DEVICES="basic")
    # the registry is scanned once, outside valgrind
    subprocess.run(["gst-inspect-1.0", "clfilters"], env=env, check=True,
                   capture_output=True)
    env["GST_REGISTRY_UPDATE"] = "no"
    described = json.loads(subprocess.run(
        [PYTHON, os.path.join(ROOT, "tests", "clcases.py")], env=env,
        check=True, capture_output=True, text=True).stdout)

    if args.scenarios:
        import scenarios
        clips = scenarios.make_clips(keep)
        chosen = [tuple(n.split(":")) for n in args.names] or (
            SCENARIO_CASES + [(name, s) for name, d in described.items()
                              for s in clcases.extra(
                                  d, name, "valgrind_scenarios")])
        failed = [c for c in chosen
                  if not run_scenario(*c, clips=clips, env=env, keep=keep)]
    else:
        pipelines = element_pipelines(described) + PIPELINES
        chosen = [p for p in pipelines
                  if not args.names or p[0] in args.names]
        failed = [p[0] for p in chosen
                  if not run_pipeline(*p, env=env, keep=keep)]
    print(f"{len(chosen) - len(failed)}/{len(chosen)} clean; "
          f"reports in {keep}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
