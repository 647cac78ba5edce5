#!/usr/bin/python3
# gstclfilters tests: what each element's tests need, for the Python suites
#
# Copyright (C) 2026 the gstclfilters authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Usage: tests/clcases.py

The elements are the features of plugin "clfilters" in the GStreamer
registry: the plugin registers those of the one list (cl_elements in
meson.build). What a suite needs of each it asks the element (its inputs,
formats, properties and their ranges); what no element can say is in
EXTRAS below, where an element without an entry, or an entry without a
key, gets the default.

Run alone (in Debian's Python, which has python3-gi), it prints what
describe() gives as JSON, for the scripts that run without the GObject
bindings; GST_PLUGIN_PATH_1_0 and GST_REGISTRY_1_0 say which plugin."""

import json
import re
import subprocess
import sys

# name: {key: value}; the keys, and their defaults:
#   scenario   tests/scenarios.py: the element's settings ("")
#   toggles    tests/scenarios.py, property-changes: [(property, values)]
#              (each property of its own that may change while playing,
#              over its range: "sweep" below)
#   valgrind   tools/valgrind.py: settings of its pipeline ("")
#   valgrind_format  its frames' format (the first the element takes)
#   valgrind_scenarios  tools/valgrind.py --scenarios: those run on it
#              (["seek-storm"])
EXTRAS = {
    "clboxblur": {"scenario": "diameter=5",
                  # 1, the identity, switches passthrough on and off
                  "toggles": [("diameter", ["1", "5", "9", "3"])],
                  "valgrind": "diameter=5", "valgrind_scenarios": ["scrub"]},
    # compositor's line, its peer in tests/scenarios.py
    "clcomposite": {"scenario": "sink_1::alpha=0.3 sink_1::xpos=40 "
                                "sink_1::ypos=30",
                    # the overlay's alpha is a pad's: turned through the
                    # element's deprecated one, 1 - sink_1::alpha
                    "toggles": [("alpha", ["1", "0", "0.7"])],
                    "valgrind": "sink_1::xpos=20 sink_1::ypos=-8",
                    "valgrind_scenarios": ["rapid-state-changes",
                                           "seek-storm"]},
    "clepsilon": {"toggles": [("threshold", ["0", "35", "20"])],
                  "valgrind_scenarios": ["seek-backward"]},
    "clintegral": {"scenario": "squared=true", "valgrind": "squared=true",
                   "valgrind_scenarios": ["pause-resume"]},
    "clsobel": {"toggles": [("mode", ["l2", "x", "y", "l1"])],
                "valgrind": "mode=l2", "valgrind_format": "NV12",
                "valgrind_scenarios": ["reverse"]},
}

PLUGIN = "clfilters"


def has_element(name):
    """Whether the GStreamer on PATH has element @name (any plugin's)."""
    return subprocess.run(["gst-inspect-1.0", "--exists", name]).returncode \
        == 0


def extra(described, name, key):
    """EXTRAS[name][key], or its default for the element @described (one
    value of describe())."""
    entry = EXTRAS.get(name, {})
    if key in entry:
        return entry[key]
    if key == "toggles":
        return described["sweep"]
    if key == "valgrind_format":
        return described["formats"][0]
    if key == "valgrind_scenarios":
        return ["seek-storm"]
    return ""


def own(pspec):
    """Whether the plugin's own classes install @pspec, not GStreamer's."""
    return pspec.owner_type.name.startswith("GstCl")


def values(Gst, GObject, pspec):
    """Values over @pspec's range, as gst_util_set_object_arg() takes them:
    each of an enum, both of a boolean, a number's minimum, default and
    maximum; None where it has no range (a string)."""
    vtype = pspec.value_type
    if vtype.is_a(GObject.TYPE_ENUM):
        return [v.value_nick
                for v in pspec.enum_class.__enum_values__.values()]
    if vtype == GObject.TYPE_BOOLEAN:
        return ["true", "false"]
    if not hasattr(pspec, "minimum"):
        return None
    out = []
    for v in (pspec.minimum, pspec.default_value, pspec.maximum):
        text = f"{v:g}" if isinstance(v, float) else str(v)
        if text not in out:
            out.append(text)
    return out


def describe(Gst, GObject):
    """{name: {"inputs": sink pads as a launch line links them, "formats":
    the formats of its sink pads, "sweep": [(property, values)] of each
    property of its own that may change while playing}}, for each element
    of the plugin (Gst initialised)."""
    registry = Gst.Registry.get()
    if registry.find_plugin(PLUGIN) is None:
        raise RuntimeError(f"no plugin {PLUGIN} (is GST_PLUGIN_PATH set?)")
    out = {}
    for f in registry.get_feature_list_by_plugin(PLUGIN):
        if not isinstance(f, Gst.ElementFactory):
            continue
        sinks = [t for t in f.get_static_pad_templates()
                 if t.direction == Gst.PadDirection.SINK]
        # the pads it always has (sink_0 before sink_1), and two of each
        # template of pads on request (sink_%u, a new pad each time)
        inputs = sorted(t.name_template for t in sinks
                        if t.presence == Gst.PadPresence.ALWAYS)
        inputs += [t.name_template for t in sinks
                   if t.presence == Gst.PadPresence.REQUEST
                   for _ in range(2)]
        # no Gst overrides in Debian's Python to read a list value: the
        # structure's text, format=(string){ A, B } or format=(string)A
        m = re.search(r"format=\(string\)(?:\{([^}]*)\}|([\w]+))",
                      sinks[0].get_caps().get_structure(0).to_string())
        formats = [s.strip() for s in (m.group(1) or m.group(2)).split(",")]
        element = f.create(None)
        sweep = []
        for p in element.list_properties():
            if (own(p) and p.flags & GObject.ParamFlags.WRITABLE and
                    p.flags & Gst.PARAM_MUTABLE_PLAYING):
                v = values(Gst, GObject, p)
                if v:
                    sweep.append((p.name, v))
        out[f.get_name()] = {"inputs": inputs, "formats": formats,
                             "sweep": sweep}
    return dict(sorted(out.items()))


def main():
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
    Gst.init(None)
    json.dump(describe(Gst, GObject), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
