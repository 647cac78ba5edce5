#!/usr/bin/env python3
# gstclfilters: plots of a clfilters-bench run, for docs/benchmarks.md
# SPDX-License-Identifier: LGPL-2.1-or-later
#
#   build/tests/clfilters-bench > bench.txt
#   tools/plot-bench.py bench.txt docs/plots/pocl "PoCL, 2 cores"
#
# Writes PREFIX-boxblur.png (ms a frame against the diameter, reference
# and optimized), PREFIX-floor.png (each element's optimized kernel against
# its floor and a copy of the frame) and PREFIX-chain.png (chains with the
# frames kept on the device and in system memory), from the Markdown tables
# the benchmark prints. Needs python3-matplotlib; nothing else of the
# project does.
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def tables(text):
    """Every Markdown table of @text: (header cells, rows of cells)."""
    out, header, rows = [], None, []
    for line in text.split("\n") + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif not set("".join(cells)) <= set("-:"):
                rows.append(cells)
        elif header is not None:
            out.append((header, rows))
            header, rows = None, []
    return out


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def columns(header, row):
    return dict(zip(header, row))


def plot_boxblur(cases, title, path):
    size = max({c["size"] for c in cases}, key=lambda s: int(s.split("x")[0]))
    rows = [c for c in cases if c["size"] == size]
    d = [int(re.search(r"diameter=(\d+)", c["properties"]).group(1))
         for c in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for key, label in (("reference ms", "reference"),
                       ("optimized ms", "optimized")):
        pts = [(x, number(c[key])) for x, c in zip(d, rows)
               if number(c[key]) is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label)
    ax.set_xlabel("diameter")
    ax.set_ylabel("ms a frame")
    ax.set_yscale("log")
    ax.set_title(f"clboxblur, RGBA {size}: {title}")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def plot_floor(cases, title, path):
    rows = [c for c in cases if number(c.get("optimized kernel ms", ""))]
    # one row an element: its first case at the largest size
    seen, pick = set(), []
    for c in sorted(rows, key=lambda c: -int(c["size"].split("x")[0])):
        if c["element"] not in seen:
            seen.add(c["element"])
            pick.append(c)
    labels = [f"{c['element']}\n{c['properties'].split(',')[0]}\n"
              f"{c['format']} {c['size']}" for c in pick]
    x = range(len(pick))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.bar([i - 0.27 for i in x], [number(c["optimized kernel ms"])
                                   for c in pick], 0.27, label="optimized kernel")
    ax.bar(list(x), [number(c["copy kernel ms"]) for c in pick], 0.27,
           label="a copy of the frame")
    ax.bar([i + 0.27 for i in x], [number(c["floor ms"]) for c in pick],
           0.27, label="floor (bytes / bandwidth)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("ms a frame")
    ax.set_yscale("log")
    ax.set_title(f"Kernels against their floor: {title}")
    # above the axes: the bars reach the top right corner
    ax.legend(fontsize=7, ncol=3, loc="lower center",
              bbox_to_anchor=(0.5, 1.08))
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def plot_chain(chains, title, path):
    names = sorted({(c["chain, NV12"], c["size"]) for c in chains})
    x = range(len(names))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for off, mem in ((-0.2, "device (memory:OpenCL)"),
                     (0.2, "system memory")):
        ms = [next((number(c["ms/frame"]) for c in chains
                    if (c["chain, NV12"], c["size"]) == n
                    and c["frames between elements"] == mem), 0)
              for n in names]
        ax.bar([i + off for i in x], ms, 0.4, label=mem)
    ax.set_xticks(list(x))
    # one element a line, so that the labels of long chains do not overlap
    ax.set_xticklabels([n[0].replace(" ! ", "\n! ") + f"\n{n[1]}"
                        for n in names], fontsize=7)
    ax.set_ylabel("ms a frame, whole pipeline")
    ax.set_title(f"Chains of elements: {title}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(sys.argv[1]).read()
    prefix, title = sys.argv[2], sys.argv[3]
    cases, chains = [], []
    for header, rows in tables(text):
        if header[:2] == ["element", "properties"] and "floor ms" in header:
            cases += [columns(header, r) for r in rows]
        elif header and header[0] == "chain, NV12":
            chains += [columns(header, r) for r in rows]
    blur = [c for c in cases if c["element"] == "clboxblur"
            and c["format"] == "RGBA" and "diameter=" in c["properties"]]
    if blur:
        plot_boxblur(blur, title, f"{prefix}-boxblur.png")
    if cases:
        plot_floor(cases, title, f"{prefix}-floor.png")
    if chains:
        plot_chain(chains, title, f"{prefix}-chain.png")
    print(f"{prefix}-*.png from {len(cases)} cases and {len(chains)} chains")
    return 0


if __name__ == "__main__":
    sys.exit(main())
