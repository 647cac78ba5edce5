#!/usr/bin/python3
# Seeks, pauses, state changes, reverse playback and scrubbing on decoded
# clips through the cl elements, checked as gst-validate checks them, and
# the same scenarios on GStreamer's own CPU elements for comparison.
#
# Copyright (C) 2026 the gstclfilters authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Usage: tests/scenarios.py [--quick] [--build DIR] [TARGET[:SCENARIO]...]

Encodes two short VP8 clips (JPEG where GStreamer has no VP8), then
runs each scenario on each target in a process of its own (a crash or a
deadlock is then a result, not the end of the run), and prints a table:
scenario x target, with the CPU peer's result beside each cl element's.
A cl element fails where it has an issue its peer does not have on the
same scenario.

Checks, after gst-validate's: no ERROR message; no hang (every wait has a
timeout, and each case runs under a deadline); a SEGMENT follows every
flush and precedes every buffer; no buffer lies wholly outside its
segment; timestamps are monotonic in the segment's direction; the segment
of a seek (the one with its seqnum) has the seek's rate, and its start for
accurate seeks; the first buffer after it holds an accurate seek's
position; the last seek yields a buffer (earlier ones may be flushed by
the next); the position query answers, within a frame of an accurate seek
in PAUSED; EOS arrives; no GStreamer object is left alive (when the
leaks tracer runs, GST_TRACERS=leaks, as under meson test); a mixer's
serialized events leave in order with its frames: an event that came into
an input after a frame ending at t leaves before any output frame stamped
a few nanoseconds after t, a stamp rounded past t (the output's lag of a
frame or more behind an input, which GstAggregator has, and the order of
the inputs' events among each other are races, not checked).

The targets are every element of the plugin (tests/clcases.py: a
filter beside videobalance, or with more than one input a mixer beside
compositor), the chain, and the peers.  --quick runs a few scenarios on
the memory:OpenCL chain and on each element outside it; meson test runs
that.  Without it, every scenario on every target."""

import argparse
import gc
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import clcases

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FPS = 30
FRAMES = 60                     # two seconds
WIDTH, HEIGHT = 160, 120
KEY_DIST = 15                   # a keyframe every half second

# name: (kind, element(s), peer, inputs); the plugin's elements are added
# by set_targets(), before these
OTHER_TARGETS = {
    "chain": ("filter", "clboxblur diameter=3 ! clsobel name=middle ! "
              "clepsilon",
              "videobalance", ["sink"]),
    "videobalance": ("filter", "videobalance saturation=0.5", None, ["sink"]),
    "compositor": ("mixer", "compositor sink_1::alpha=0.3 sink_1::xpos=40 "
                   "sink_1::ypos=30", None, ["sink_0", "sink_1"]),
    # timestamps turned into running time in one segment: the checks must
    # catch it, or they check nothing
    "control": ("filter", "identity single-segment=true", None, ["sink"]),
}
TARGETS = {}

SCENARIOS = ["play", "seek-forward", "seek-backward", "seek-key-unit",
             "seek-non-flushing", "seek-storm", "seek-past-end",
             "fast-forward",
             "seek-storm-unsynced", "property-changes", "pause-resume",
             "rapid-state-changes",
             "null-cycles", "reverse", "scrub"]
UNSYNCED = ("seek-storm-unsynced",)
# --quick: these on the chain, and the others on each element outside it
QUICK_CHAIN = ("seek-backward", "seek-storm", "property-changes",
               "rapid-state-changes", "reverse", "scrub")
QUICK_OTHERS = ("seek-forward", "rapid-state-changes", "reverse", "scrub")

# tools/valgrind.py runs cases under memcheck, tens of times slower
TIMEOUT_SCALE = float(os.environ.get("CL_SCENARIO_TIMEOUT_SCALE", "1"))
CASE_DEADLINE = 60 * TIMEOUT_SCALE


def serialized(Gst, event):
    return bool(int(event.type) & int(Gst.EventTypeFlags.SERIALIZED))


def ms(t):
    return int(t * 1000) * 1000000


# ---------------------------------------------------------------- clips

def clip_encoding():
    """The clips' extension and encoder: VP8 in WebM, a keyframe every
    KEY_DIST frames; where this GStreamer has no VP8 (built without
    libvpx), JPEG in Matroska, every frame a keyframe, which the peers
    then play too."""
    if clcases.has_element("vp8enc") and clcases.has_element("vp8dec"):
        return "webm", ["vp8enc", "keyframe-max-dist=%d" % KEY_DIST,
                        "deadline=1", "!", "webmmux"]
    print("no VP8 in this GStreamer: the clips are JPEG in Matroska, "
          "every frame a keyframe")
    return "mkv", ["jpegenc", "!", "matroskamux"]


def make_clips(directory):
    """A moving ball, and a smaller moving pattern to lay over it."""
    clips = []
    ext, encode = clip_encoding()
    for name, pattern, w, h in (("a", "ball", WIDTH, HEIGHT),
                                ("b", "smpte horizontal-speed=2",
                                 WIDTH // 2, HEIGHT // 2)):
        path = os.path.join(directory, "%s.%s" % (name, ext))
        if not os.path.exists(path):
            subprocess.run(
                ["gst-launch-1.0", "-q", "videotestsrc", "pattern=" +
                 pattern.split()[0]] + pattern.split()[1:] +
                ["num-buffers=%d" % FRAMES, "!",
                 "video/x-raw,width=%d,height=%d,framerate=%d/1" % (w, h, FPS),
                 "!"] + encode + ["!", "filesink",
                                  "location=" + path + ".part"], check=True)
            os.rename(path + ".part", path)
        clips.append(path)
    return clips


def set_targets(described):
    """TARGETS: the plugin's elements, @described by clcases.describe(),
    each with its settings and its peer, then the others; and what
    property-changes turns on them."""
    TARGETS.clear()
    for name, d in described.items():
        mixer = len(d["inputs"]) > 1
        TARGETS[name] = ("mixer" if mixer else "filter",
                         ("%s %s" % (name, clcases.extra(
                             d, name, "scenario"))).strip(),
                         "compositor" if mixer else "videobalance",
                         d["inputs"])
        TOGGLES[name] = clcases.extra(d, name, "toggles")
    TARGETS.update(OTHER_TARGETS)


def quick_cases():
    """--quick's: QUICK_CHAIN on the chain, QUICK_OTHERS on each of the
    plugin's elements that is not in it."""
    in_chain = {e.split()[0] for e in TARGETS["chain"][1].split("!")}
    return [("chain", s) for s in QUICK_CHAIN] + \
        [(t, s) for t in TARGETS
         if t not in OTHER_TARGETS and t not in in_chain
         for s in QUICK_OTHERS]


def pipeline_description(target, clips, sync=True):
    """decodebin's pads are linked by Case, each time they appear."""
    kind, element, _, inputs = TARGETS[target]
    decoded = ("filesrc location=%s ! decodebin name=decode%d "
               "videoconvert name=convert%d")
    # system memory out, as a display or an encoder wants it: fakesink
    # would take memory:OpenCL through videoconvert's passthrough
    sink = "video/x-raw ! fakesink name=sink sync=%s" % str(sync).lower()
    if kind == "filter":
        return "%s ! %s ! %s" % (decoded % (clips[0], 0, 0), element, sink)
    # the larger clip into the first input, the smaller into the others
    return "%s name=mix ! %s %s" % (element, sink, " ".join(
        "%s ! mix.%s" % (decoded % (clips[min(i, 1)], i, i), pad)
        for i, pad in enumerate(inputs)))


# ---------------------------------------------------------------- one case

class Case:
    """One scenario on one pipeline, in this process."""

    def __init__(self, Gst, description):
        self.Gst = Gst
        self.pipeline = Gst.parse_launch(description)
        self.bus = self.pipeline.get_bus()
        self.log = []
        self.lock = threading.Lock()
        self.issues = []
        # gst-launch's delayed links are made once, and decodebin removes
        # its pads in READY: link them again whenever they come back, as
        # an application does
        for i in itertools.count():
            decode = self.pipeline.get_by_name("decode%d" % i)
            if decode is None:
                break
            convert = self.pipeline.get_by_name("convert%d" % i)
            decode.connect("pad-added", self.link_decoded,
                           convert.get_static_pad("sink"))
        self.chain_caps = []
        middle = self.pipeline.get_by_name("middle")
        if middle is not None:
            middle.get_static_pad("sink").add_probe(
                Gst.PadProbeType.EVENT_DOWNSTREAM, self.caps_probe)
        sinkpad = self.pipeline.get_by_name("sink").get_static_pad("sink")
        T = Gst.PadProbeType
        sinkpad.add_probe(T.BUFFER | T.EVENT_DOWNSTREAM | T.EVENT_FLUSH,
                          self.probe)
        mix = self.pipeline.get_by_name("mix")
        if mix is not None:
            self.watch_serialized_events(mix)

    # serialized events in order, as gst-validate's pad monitors check them:
    # an event that came into an input after a buffer ending at t leaves
    # before any output frame stamped after t

    def watch_serialized_events(self, element):
        T = self.Gst.PadProbeType
        self.input_end = {}         # input pad -> end of its last buffer
        self.expected = []          # (event type, input's end, input pad)
        self.expired = []           # event types passed over on the way out
        for pad in element.sinkpads:
            pad.add_probe(T.BUFFER | T.EVENT_DOWNSTREAM | T.EVENT_FLUSH,
                          self.input_probe)
        element.get_static_pad("src").add_probe(
            T.BUFFER | T.EVENT_DOWNSTREAM | T.EVENT_FLUSH, self.output_probe)

    def input_probe(self, pad, info):
        Gst = self.Gst
        NONE = Gst.CLOCK_TIME_NONE
        if info.type & Gst.PadProbeType.BUFFER:
            buf = info.get_buffer()
            end = buf.pts
            if end != NONE and buf.duration != NONE:
                end += buf.duration
            with self.lock:
                self.input_end[pad.get_name()] = end
            return Gst.PadProbeReturn.OK
        ev = info.get_event()
        with self.lock:
            if ev.type == Gst.EventType.FLUSH_STOP:
                self.input_end.pop(pad.get_name(), None)
            elif serialized(Gst, ev) and ev.type != Gst.EventType.TAG:
                self.expected.append((ev.type, self.input_end.get(
                    pad.get_name(), NONE), pad.get_name()))
        return Gst.PadProbeReturn.OK

    def output_probe(self, pad, info):
        Gst = self.Gst
        NONE = Gst.CLOCK_TIME_NONE
        with self.lock:
            if info.type & Gst.PadProbeType.BUFFER:
                pts = info.get_buffer().pts
                while self.expected and pts != NONE:
                    kind, end, name = self.expected[0]
                    if end == NONE or end >= pts:
                        break
                    # a stamp a few ns past the input frame's end is a
                    # stamp rounded the wrong way; a frame or more is the
                    # output's lag behind an input, which GstAggregator
                    # has (compositor's too), and whether an event of the
                    # other input overtakes it is a race: not counted
                    if pts - end < 1000:
                        self.issue("serialized event %s left after an "
                                   "output frame stamped %d ns past the end "
                                   "of the input frame it came in after" %
                                   (kind.value_nick, pts - end))
                    self.expected.pop(0)
                return Gst.PadProbeReturn.OK
            ev = info.get_event()
            if ev.type == Gst.EventType.FLUSH_STOP:
                self.expected, self.expired = [], []
            elif serialized(Gst, ev):
                self.match_serialized(ev.type)
        return Gst.PadProbeReturn.OK

    def match_serialized(self, kind):
        """An event of @kind leaves: it answers the first expected one of
        its kind, with any of that kind right after it; those expected
        before it were passed over."""
        if kind in self.expired:
            # the inputs' events merged into one stream: their order across
            # inputs is the threads', not an issue
            self.expired.remove(kind)
            return
        for i, (expected, _, _) in enumerate(self.expected):
            if expected != kind:
                continue
            j = i
            while j < len(self.expected) and self.expected[j][0] == kind:
                j += 1
            self.expired += [e[0] for e in self.expected[:i]]
            del self.expected[:j]
            return

    def link_decoded(self, decode, pad, sinkpad):
        if not sinkpad.is_linked():
            pad.link(sinkpad)

    def caps_probe(self, pad, info):
        ev = info.get_event()
        if ev.type == self.Gst.EventType.CAPS:
            self.chain_caps.append(ev.parse_caps().to_string())
        return self.Gst.PadProbeReturn.OK

    def record(self, item):
        with self.lock:
            self.log.append(item)

    def probe(self, pad, info):
        Gst = self.Gst
        if info.type & Gst.PadProbeType.BUFFER:
            buf = info.get_buffer()
            self.record(("buffer", buf.pts, buf.duration))
            return Gst.PadProbeReturn.OK
        ev = info.get_event()
        t = ev.type
        if t == Gst.EventType.SEGMENT:
            s = ev.parse_segment()
            self.record(("segment", ev.get_seqnum(), s.rate, s.start,
                         s.stop))
        elif t == Gst.EventType.FLUSH_STOP:
            self.record(("flush-stop",))
        elif t == Gst.EventType.STREAM_START:
            self.record(("stream-start",))
        elif t == Gst.EventType.EOS:
            self.record(("eos",))
        return Gst.PadProbeReturn.OK

    def issue(self, text):
        if text not in self.issues:
            self.issues.append(text)

    # bus and states

    def pump(self, seconds, until=()):
        """Reads the bus for up to seconds, or until a message of a type in
        until; an ERROR is an issue and ends the wait."""
        Gst = self.Gst
        deadline = time.monotonic() + seconds
        while True:
            left = max(deadline - time.monotonic(), 0)
            msg = self.bus.timed_pop(int(left * Gst.SECOND))
            if msg is None:
                return None
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                reason = re.search(r"reason [a-z-]+", dbg or "")
                # named by factory, so that the peer's reads the same
                self.issue("ERROR from %s: %s%s" % (
                    msg.src.get_factory().get_name(), err.message,
                    " (%s)" % reason.group(0) if reason else ""))
                return msg
            if msg.type in until and (msg.type != Gst.MessageType.ASYNC_DONE
                                      or msg.src == self.pipeline):
                return msg

    def settle(self, what, timeout=15):
        timeout *= TIMEOUT_SCALE
        ret, state, _ = self.pipeline.get_state(int(timeout * self.Gst.SECOND))
        if ret == self.Gst.StateChangeReturn.ASYNC:
            self.issue("hang: %s did not complete in %d s" % (what, timeout))
            raise RuntimeError("hang")
        if ret == self.Gst.StateChangeReturn.FAILURE:
            self.pump(0.2)
            self.issue("state change failed: %s" % what)
            raise RuntimeError("failure")
        return state

    def set(self, state, wait=True):
        self.pipeline.set_state(state)
        if wait:
            self.settle(state.value_nick)

    def seek(self, rate, flags, start, stop=None):
        Gst = self.Gst
        stop_type = Gst.SeekType.NONE if stop is None else Gst.SeekType.SET
        # an ASYNC_DONE still on the bus is not this seek's
        self.pump(0)
        event = Gst.Event.new_seek(rate, Gst.Format.TIME, flags,
                                   Gst.SeekType.SET, start, stop_type,
                                   0 if stop is None else stop)
        self.record(("seek", event.get_seqnum(), rate, int(flags), start))
        if not self.pipeline.send_event(event):
            self.issue("seek refused (rate %g to %.3f s)" %
                       (rate, start / Gst.SECOND))
            return False
        return True

    def wait_seek_done(self):
        if self.pump(15 * TIMEOUT_SCALE,
                     (self.Gst.MessageType.ASYNC_DONE,)) is None:
            self.issue("hang: no ASYNC_DONE after a flushing seek")
            raise RuntimeError("hang")

    def position(self, expect=None):
        # right after a flushing seek the sink may not know yet: a second
        for _ in range(int(20 * TIMEOUT_SCALE)):
            ok, pos = self.pipeline.query_position(self.Gst.Format.TIME)
            if ok:
                break
            time.sleep(0.05)
        if not ok:
            self.issue("position query unanswered")
        elif pos < 0 or pos > ms(FRAMES / FPS) + self.Gst.SECOND // FPS:
            self.issue("position %d out of the clip" % pos)
        elif expect is not None and abs(pos - expect) > self.Gst.SECOND // FPS:
            self.issue("position %.3f s after a seek to %.3f s" %
                       (pos / 1e9, expect / 1e9))

    def wait_eos(self, seconds=15):
        seconds *= TIMEOUT_SCALE
        msg = self.pump(seconds, (self.Gst.MessageType.EOS,))
        if msg is None:
            self.issue("hang: no EOS in %d s" % seconds)
        elif msg.type != self.Gst.MessageType.EOS:
            raise RuntimeError("error")

    # the checks on what reached the sink

    def check_log(self):
        """Goes through what reached the sink; a seek's segment is the one
        with its seqnum, as gst-validate pairs them."""
        NONE = self.Gst.CLOCK_TIME_NONE
        segment = None
        need_segment = True
        last = None
        seeks = {}
        answered = set()
        first_after_seek = None     # the seek whose first buffer is next
        last_seek = None
        last_seek_yielded = False
        n_buffers = 0
        for item in self.log:
            kind = item[0]
            if kind == "seek":
                seeks[item[1]] = last_seek = item
                last_seek_yielded = False
            elif kind in ("flush-stop", "stream-start"):
                need_segment = True
                first_after_seek = None
            elif kind == "segment":
                _, seqnum, rate, start, stop = item
                segment, need_segment, last = item, False, None
                if seqnum in seeks and seqnum not in answered:
                    answered.add(seqnum)
                    self.check_segment(seeks[seqnum], rate, start)
                    first_after_seek = seeks[seqnum]
            elif kind == "buffer":
                n_buffers += 1
                self.check_buffer(item, segment, need_segment, last)
                last = item[1]
                if first_after_seek is not None:
                    self.check_first_buffer(first_after_seek, *item[1:])
                    if first_after_seek is last_seek:
                        last_seek_yielded = True
                    first_after_seek = None
        # earlier seeks may be flushed by later ones before any buffer
        if last_seek is not None and last_seek[1] not in answered:
            self.issue("no segment for the last seek")
        elif last_seek is not None and not last_seek_yielded:
            self.issue("no buffer after the last seek")
        return n_buffers

    def check_buffer(self, item, segment, need_segment, last):
        NONE = self.Gst.CLOCK_TIME_NONE
        _, pts, dur = item
        if need_segment or segment is None:
            self.issue("buffer without a segment before it")
            return
        if pts == NONE:
            self.issue("buffer without a timestamp")
            return
        _, _, rate, start, stop = segment
        end = pts + (dur if dur != NONE else 0)
        before = end <= start if dur != NONE else pts < start
        if (stop != NONE and pts >= stop) or before:
            self.issue("buffer %.3f s outside segment %.3f..%s" %
                       (pts / 1e9, start / 1e9, "end" if stop == NONE
                        else "%.3f" % (stop / 1e9)))
        if last is not None and last != NONE and (pts < last if rate > 0
                                                  else pts > last):
            self.issue("timestamps not monotonic in the segment's "
                       "direction (%.3f after %.3f)" %
                       (pts / 1e9, last / 1e9))

    def check_segment(self, seek, rate, start):
        _, _, seek_rate, flags, seek_start = seek
        if rate != seek_rate:
            self.issue("segment rate %g after a seek at rate %g" %
                       (rate, seek_rate))
        accurate = flags & int(self.Gst.SeekFlags.ACCURATE)
        if accurate and seek_rate > 0 and start != seek_start:
            self.issue("segment start %.3f s after an accurate seek to "
                       "%.3f s" % (start / 1e9, seek_start / 1e9))

    def check_first_buffer(self, seek, pts, dur):
        _, _, rate, flags, start = seek
        end = pts + dur if dur != self.Gst.CLOCK_TIME_NONE else pts + 1
        accurate = flags & int(self.Gst.SeekFlags.ACCURATE)
        if accurate and rate > 0 and not pts <= start < end:
            self.issue("first buffer %.3f s after an accurate seek to %.3f s"
                       % (pts / 1e9, start / 1e9))


# ---------------------------------------------------------------- scenarios

def scenario_play(c):
    c.set(c.Gst.State.PLAYING)
    c.position()
    c.wait_eos()


def flushing_seek_while_playing(c, first, to, flags):
    c.set(c.Gst.State.PLAYING)
    time.sleep(first)
    c.position()
    c.seek(1.0, flags, ms(to))
    c.position()
    c.wait_eos()


def scenario_seek_forward(c):
    F = c.Gst.SeekFlags
    flushing_seek_while_playing(c, 0.3, 1.21, F.FLUSH | F.ACCURATE)


def scenario_seek_backward(c):
    F = c.Gst.SeekFlags
    flushing_seek_while_playing(c, 1.2, 0.41, F.FLUSH | F.ACCURATE)


def scenario_seek_key_unit(c):
    F = c.Gst.SeekFlags
    flags = F.FLUSH | F.KEY_UNIT | F.SNAP_BEFORE
    c.set(c.Gst.State.PLAYING)
    for to in (1.3, 0.2, 0.9):
        time.sleep(0.2)
        c.seek(1.0, flags, ms(to))
        c.position()
    c.wait_eos()


def scenario_seek_non_flushing(c):
    c.set(c.Gst.State.PLAYING)
    time.sleep(0.3)
    c.seek(1.0, c.Gst.SeekFlags.ACCURATE, ms(1.5))
    c.wait_eos()


def seek_storm(c, seeks, first, step, span, pause, cycle):
    """@seeks flushing seeks that do not wait for each other, frames in
    flight: to (first + step * i) % span s, @pause * (i % cycle) s apart."""
    F = c.Gst.SeekFlags
    c.set(c.Gst.State.PLAYING)
    for i in range(seeks):
        c.seek(1.0, F.FLUSH | F.ACCURATE, ms((first + step * i) % span))
        time.sleep(pause * (i % cycle))


def scenario_seek_storm(c):
    seek_storm(c, 20, 0.11, 0.53, 1.7, 0.01, 4)
    c.position()
    c.wait_eos()


def scenario_seek_storm_unsynced(c):
    seek_storm(c, 30, 0.07, 0.61, 1.9, 0.005, 3)
    c.wait_eos()


def scenario_null_cycles(c):
    """Back to NULL and up again, the OpenCL context let go each time."""
    S = c.Gst.State
    for i in range(4):
        for state in (S.PLAYING, S.NULL):
            c.set(state, wait=False)
            time.sleep(0.05 * (i % 3))
    c.set(S.PLAYING)
    c.position()
    c.wait_eos()


def scenario_seek_past_end(c):
    F = c.Gst.SeekFlags
    c.set(c.Gst.State.PLAYING)
    time.sleep(0.3)
    c.seek(1.0, F.FLUSH | F.ACCURATE, ms(2.3))
    c.wait_eos()


def scenario_fast_forward(c):
    F = c.Gst.SeekFlags
    c.set(c.Gst.State.PLAYING)
    for rate, to in ((2.0, 0.2), (4.0, 0.9)):
        time.sleep(0.15)
        c.seek(rate, F.FLUSH | F.ACCURATE, ms(to))
        c.position()
    c.wait_eos()


# what property-changes turns, per element factory: [(property, values)];
# identity values (diameter 1, threshold 0, saturation 1) switch
# passthrough on and off. The plugin's elements' come from
# tests/clcases.py (set_targets()).
TOGGLES = {
    "videobalance": [("saturation", ["1", "0.2", "0.5"])],
    "compositor": [("background", ["black", "white", "checker"])],
}


def scenario_property_changes(c):
    """Properties changed while frames flow, some to the identity, with
    flushing seeks between."""
    F = c.Gst.SeekFlags
    elements = [e for e in c.pipeline.children
                if e.get_factory().get_name() in TOGGLES]
    c.set(c.Gst.State.PLAYING)
    for i in range(24):
        for e in elements:
            for prop, values in TOGGLES[e.get_factory().get_name()]:
                c.Gst.util_set_object_arg(e, prop, values[i % len(values)])
        if i % 8 == 7:
            c.seek(1.0, F.FLUSH | F.ACCURATE, ms(0.05 * i))
        time.sleep(0.03)
    del elements
    c.wait_eos()


def scenario_pause_resume(c):
    Gst = c.Gst
    c.set(Gst.State.PLAYING)
    for _ in range(3):
        time.sleep(0.25)
        c.set(Gst.State.PAUSED)
        _, before = c.pipeline.query_position(Gst.Format.TIME)
        time.sleep(0.2)
        _, after = c.pipeline.query_position(Gst.Format.TIME)
        if before != after:
            c.issue("position moves in PAUSED")
        c.set(Gst.State.PLAYING)
    c.position()
    c.wait_eos()


def scenario_rapid_state_changes(c):
    S = c.Gst.State
    # some at once, some with frames in flight between them
    for i in range(6):
        for state in (S.PLAYING, S.PAUSED, S.READY, S.PAUSED, S.PLAYING):
            c.set(state, wait=False)
            time.sleep(0.02 * (i % 3))
    c.settle("PLAYING after rapid state changes")
    c.position()
    c.wait_eos()


def scenario_reverse(c):
    F = c.Gst.SeekFlags
    c.set(c.Gst.State.PAUSED)
    c.seek(-1.0, F.FLUSH | F.ACCURATE, 0, ms(1.5))
    c.wait_seek_done()
    c.set(c.Gst.State.PLAYING)
    c.position()
    c.wait_eos()


def scenario_scrub(c):
    F = c.Gst.SeekFlags
    c.set(c.Gst.State.PAUSED)
    for i in range(16):
        to = ms((0.13 + 0.37 * i) % 1.9)
        c.seek(1.0, F.FLUSH | F.ACCURATE, to)
        c.wait_seek_done()
        c.position(to)
    c.seek(1.0, F.FLUSH | F.ACCURATE, ms(1.6))
    c.wait_seek_done()
    c.set(c.Gst.State.PLAYING)
    c.wait_eos()


def run_case(target, scenario, clips):
    """In the child process: one scenario, the results as JSON."""
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
    Gst.init(None)
    set_targets(clcases.describe(Gst, GObject))
    # unsynchronised, frames run as fast as the elements go
    c = Case(Gst, pipeline_description(target, clips,
                                       scenario not in UNSYNCED))
    try:
        globals()["scenario_" + scenario.replace("-", "_")](c)
    except RuntimeError:
        pass
    c.pipeline.set_state(Gst.State.NULL)
    n_buffers = c.check_log()
    if any("memory:OpenCL" not in caps for caps in c.chain_caps):
        c.issue("the chain left memory:OpenCL")
    # an aggregator's count is its own: the peer's is compared
    if (scenario == "play" and TARGETS[target][0] == "filter" and
            n_buffers != FRAMES):
        c.issue("%d buffers of %d" % (n_buffers, FRAMES))
    print(json.dumps({"issues": c.issues, "buffers": n_buffers}))
    sys.stdout.flush()
    # the leaks tracer, where it runs, says at deinit what is still alive;
    # the probe and the pad-added handlers hold c: let go of the pipeline
    # from c, so that the pipeline lets go of them
    c.pipeline = c.bus = None
    del c
    gc.collect()
    Gst.deinit()
    os._exit(0)


# ---------------------------------------------------------------- the table

def spawn(target, scenario, clips, env):
    cmd = [sys.executable, os.path.abspath(__file__), "--case",
           target, scenario] + clips
    try:
        res = subprocess.run(cmd, env=env, capture_output=True, text=True,
                             timeout=CASE_DEADLINE)
    except subprocess.TimeoutExpired:
        return {"issues": ["hang: killed after %d s" % CASE_DEADLINE],
                "buffers": 0}
    lines = res.stdout.strip().splitlines()
    if res.returncode != 0 or not lines:
        return {"issues": ["crash: exit %d: %s" %
                           (res.returncode, res.stderr.strip()[-300:])],
                "buffers": 0}
    result = json.loads(lines[-1])
    if "Leaks detected" in res.stderr:
        result["issues"].append("GStreamer objects left alive")
    return result


def label(result):
    return "pass" if not result["issues"] else "FAIL"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--clips", help="directory for the encoded clips")
    parser.add_argument("--case", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("cases", nargs="*", help="TARGET or TARGET:SCENARIO")
    args = parser.parse_args()
    if args.case:
        run_case(args.case[0], args.case[1], args.case[2:])

    env = dict(os.environ)
    if "GST_PLUGIN_PATH_1_0" not in env:
        build = os.path.abspath(args.build)
        env.update(GST_PLUGIN_PATH_1_0=os.path.join(build, "gst"),
                   GST_REGISTRY_1_0=os.path.join(build, "tests",
                                                 "registry.bin"),
                   XDG_CACHE_HOME=os.path.join(build, "tests", "cache"))
    clip_dir = args.clips or os.path.join(
        tempfile.gettempdir(), "clfilters-scenario-clips-%d" % os.getuid())
    os.makedirs(clip_dir, exist_ok=True)
    clips = make_clips(clip_dir)
    # the plugin's elements, asked in a process with the test's environment
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "clcases.py")],
        env=env, capture_output=True, text=True)
    if res.returncode != 0:
        print("the plugin's elements: %s" % res.stderr.strip())
        return 1
    set_targets(json.loads(res.stdout))

    if args.cases:
        wanted = []
        for spec in args.cases:
            t, _, s = spec.partition(":")
            wanted += [(t, x) for x in ([s] if s else SCENARIOS)]
    elif args.quick:
        wanted = quick_cases()
    else:
        wanted = [(t, s) for t in TARGETS if t != "control"
                  for s in SCENARIOS]
    control = None
    if args.quick or not args.cases:
        control = spawn("control", "seek-forward", clips, env)

    results = {}
    failed = []
    for target, scenario in wanted:
        peer = TARGETS[target][2]
        for t in (target, peer):
            if t is not None and (t, scenario) not in results:
                results[(t, scenario)] = spawn(t, scenario, clips, env)
        mine = results[(target, scenario)]
        theirs = results[(peer, scenario)] if peer else {"issues": []}
        extra = [i for i in mine["issues"] if i not in theirs["issues"]]
        if (scenario == "play" and peer is not None and
                mine["buffers"] != theirs["buffers"]):
            extra.append("%d buffers, the peer %d" % (mine["buffers"],
                                                       theirs["buffers"]))
            mine["issues"].append(extra[-1])
        print("%-20s %-12s %s (%d buffers)%s" %
              (scenario, target, label(mine), mine["buffers"],
               "" if peer is None else "  peer %s: %s" %
               (peer, label(theirs))), flush=True)
        for i in mine["issues"]:
            print("    %s%s" % ("" if i in extra else "(as the peer) ", i))
        # a crash or a hang fails whatever the peer does
        broke = any(i.startswith(("crash", "hang")) for i in mine["issues"])
        if broke or (extra and peer is not None):
            failed.append((target, scenario))

    targets = [t for t in TARGETS if any(t == w[0] for w in wanted)]
    print("\n%-20s" % "" + "".join("%-13s" % t for t in targets))
    for s in SCENARIOS:
        if any(s == w[1] for w in wanted):
            print("%-20s" % s + "".join(
                "%-13s" % (label(results[(t, s)]) if (t, s) in results
                           else "-") for t in targets))
    print("\n%d cases, %d worse than the peer" % (len(wanted), len(failed)))
    if control is not None:
        print("control (identity single-segment=true), caught: %s" %
              "; ".join(control["issues"][:2]))
        if not any(i.startswith("first buffer") for i in control["issues"]):
            print("the checks missed the control's timestamps")
            return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
