#!/usr/bin/python3
# gstclfilters tests: every element page's property table says what
# gst-inspect-1.0 says
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Reads the property table of docs/<element>.md and holds each row to the
# element's own GParamSpecs (what gst-inspect-1.0 prints): the property
# exists on the element or on the pad the row names, its type, its range
# (which every number must give), its default (the value of a new element,
# as gst-inspect-1.0 shows it), its enum values, and "controllable" and
# "changeable while playing" in the notes only where they hold. Every
# property the element's own class installs (its pads' too) must have a
# row; inherited ones (qos, GstAggregator's, device-index and variant of
# the cl base classes) may, and a row that is there is checked. The elements are those the
# plugin registers (tests/clcases.py).
#
#   tests/doc-properties.py SOURCE_ROOT
import os
import re
import sys

import gi

import clcases

gi.require_version("Gst", "1.0")
from gi.repository import GObject, Gst  # noqa: E402

TYPES = {
    "int": "gint", "uint": "guint", "double": "gdouble",
    "bool": "gboolean", "boolean": "gboolean",
}


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def property_rows(path):
    """(line number, {column: cell}) of each row of the page's table whose
    header starts with "property"."""
    with open(path) as f:
        lines = f.read().split("\n")
    header = None
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            header = [c.lower() for c in row]
            if header[0] != "property":
                header = []
            continue
        if not header or set(line) <= set("|-: "):
            continue
        yield i + 1, dict(zip(header, row))


def parse_type(text):
    """(GType name or "enum", (min, max) or None, [enum nicks] or None)"""
    nicks = re.findall(r"`([^`]+)`", text)
    if text.startswith("enum") or (nicks and "/" in text):
        return "enum", None, nicks
    m = re.match(r"(u?int|double|bool(?:ean)?)\b\s*(?:(-?[\d.]+)\.\.(-?[\d.]+))?",
                 text)
    if not m:
        raise ValueError(f"unknown type '{text}'")
    rng = (float(m.group(2)), float(m.group(3))) if m.group(2) else None
    return TYPES[m.group(1)], rng, None


def shown(value):
    """A default as the pages write it (and gst-inspect-1.0 shows it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (GObject.GEnum, GObject.GFlags)):
        return value.value_nick
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def check_row(owner, name, row):
    """What is wrong with the row of property @name of @owner (an element
    or a pad), as a list of sentences."""
    pspec = owner.find_property(name)
    if pspec is None:
        return [f"{owner.get_name()} has no property '{name}'"]
    errors = []
    try:
        kind, rng, nicks = parse_type(row["type"])
    except ValueError as e:
        return [f"'{name}': {e}"]
    vtype = pspec.value_type
    if kind == "enum":
        if not vtype.is_a(GObject.TYPE_ENUM):
            errors.append(f"'{name}' is {vtype.name}, not an enum")
        else:
            values = [
                v.value_nick for v in pspec.enum_class.__enum_values__.values()]
            if sorted(values) != sorted(nicks):
                errors.append(f"'{name}' takes {values}, the page says {nicks}")
    elif vtype.name != kind:
        errors.append(f"'{name}' is {vtype.name}, the page says {kind}")
    elif kind != "gboolean" and not rng:
        errors.append(f"'{name}' has no range on the page "
                      f"({pspec.minimum}..{pspec.maximum})")
    elif rng and (pspec.minimum, pspec.maximum) != rng:
        errors.append(f"'{name}' ranges {pspec.minimum}..{pspec.maximum}, "
                      f"the page says {rng[0]:g}..{rng[1]:g}")
    default = shown(owner.get_property(name))
    page_default = row["default"].strip("`")
    if page_default != default:
        errors.append(f"'{name}' defaults to {default}, the page says "
                      f"{page_default}")
    notes = row.get("notes", "") + row.get("", "")
    controllable = bool(pspec.flags & Gst.PARAM_CONTROLLABLE)
    said = re.search(r"(?<!not )\bcontrollable", notes, re.I) is not None
    if said != controllable and (said or "not controllable" in notes):
        errors.append(f"'{name}' is {'' if controllable else 'not '}"
                      "controllable, the page says otherwise")
    if (re.search(r"changeable while playing", notes, re.I)
            and not pspec.flags & Gst.PARAM_MUTABLE_PLAYING):
        errors.append(f"'{name}' cannot change while PLAYING, the page "
                      "says it can")
    return errors


def own_properties(obj, classes_own=False):
    """Properties installed by our classes: those the first of GStreamer's
    classes it derives from (GstBaseTransform, GstVideoAggregatorPad...)
    lacks; with @classes_own, by its own class alone, not by the base
    classes it shares with the other elements (device-index, variant)."""
    base = obj.__gtype__.parent if classes_own else obj.__gtype__
    while not classes_own and base.name.startswith("GstCl"):
        base = base.parent
    inherited = {p.name for p in GObject.list_properties(base)}
    return {p.name for p in obj.list_properties() if p.name not in inherited}


def check_page(root, element):
    path = os.path.join(root, "docs", f"{element}.md")
    el = Gst.ElementFactory.make(element)
    if el is None:
        return [f"{element}: no such element (is GST_PLUGIN_PATH set?)"]
    if not os.path.exists(path):
        print(f"FAIL {element}: no page")
        return [f"{path}: missing: every element has a page with a table of "
                "its properties (docs/design.md#adding-an-element)"]
    # its inputs, one of each template of pads on request
    for t in el.get_pad_template_list():
        if (t.direction == Gst.PadDirection.SINK and
                t.presence == Gst.PadPresence.REQUEST):
            el.request_pad_simple(t.name_template)
    pads = {p.get_name(): p for p in el.sinkpads}
    # the element's own properties need a row; those every cl element has
    # (device-index, variant: docs/design.md) may have one
    undocumented = own_properties(el, classes_own=True)
    # a pad class's own properties need a row on one of its pads (a class
    # may serve several: one row covers them)
    pad_undocumented = {}
    for pad in pads.values():
        for n in own_properties(pad):
            pad_undocumented.setdefault((pad.__gtype__.name, n), []).append(
                pad.get_name())
    errors, rows = [], 0
    for line, row in property_rows(path):
        rows += 1
        where = row.get("where", "element").strip("`")
        owner = pads.get(where, el)
        if where != "element" and where not in pads:
            errors.append(f"{path}:{line}: no pad '{where}'")
            continue
        for name in re.findall(r"`([a-z][a-z0-9-]*)`", row["property"]):
            if owner is el:
                undocumented.discard(name)
            else:
                pad_undocumented.pop((owner.__gtype__.name, name), None)
            errors += [f"{path}:{line}: {e}"
                       for e in check_row(owner, name, row)]
    if rows == 0 and (undocumented or pad_undocumented):
        errors.append(f"{path}: no property table")
    errors += [f"{path}: '{n}' has no row" for n in sorted(undocumented)]
    errors += [f"{path}: '{n}' of pad {' or '.join(sorted(names))} has no row"
               for (_, n), names in sorted(pad_undocumented.items())]
    print(f"{'ok  ' if not errors else 'FAIL'} {element}: {rows} rows")
    return errors


def main():
    Gst.init(None)
    elements = clcases.describe(Gst, GObject)
    failed = 0
    for element in elements:
        errors = check_page(sys.argv[1], element)
        for e in errors:
            print("  " + e)
        failed += bool(errors)
    print(f"{len(elements) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
