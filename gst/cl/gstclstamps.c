/* gstclfilters: the output frames of a mixer playing backwards, stamped
 * as forward ones are
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * In reverse playback GstVideoAggregator stamps frame k of a run that
 * starts at the stream time o at o - floor (k / fps): the true start rounded
 * up, a nanosecond past the end of the input frame beside it where k / fps
 * is no whole number of nanoseconds (0.033333334 against an input's
 * 0 + 0.033333333). An input's EOS that comes in right after its last frame
 * then looks late beside the output frame made from it (gst-validate warns
 * that the event "wasn't pushed before expected timestamp"), and whether it
 * does depends on which thread gets there first. So the output frame is
 * stamped o - ceil (k / fps), the true start rounded down, as frames are
 * stamped playing forward; where the frames are not those of one run as
 * computed here (a QoS drop, a start clipped to the segment), as they came.
 */
#include "gstclstamps.h"

/**
 * gst_cl_reverse_stamps_apply:
 * @stamps: the run being stamped, zeroed before the first frame
 * @rate: the output segment's rate: forward playback ends a run
 * @fps_n: the output's frame rate, numerator over @fps_d
 *
 * Stamps @outbuf, as GstVideoAggregator stamped it, as described above.
 */
void
gst_cl_reverse_stamps_apply (GstClReverseStamps * stamps, GstBuffer * outbuf,
    gdouble rate, gint fps_n, gint fps_d)
{
  GstClockTime pts = GST_BUFFER_PTS (outbuf);
  GstClockTime dur = GST_BUFFER_DURATION (outbuf);
  GstClockTime down, up, start;

  if (rate >= 0 || fps_n <= 0 || fps_d <= 0 || !GST_CLOCK_TIME_IS_VALID (pts)
      || !GST_CLOCK_TIME_IS_VALID (dur)) {
    stamps->frames = 0;
    return;
  }
  /* the next frame of the run: its end is the last one's start */
  if (stamps->frames == 0 || pts + dur != stamps->last_pts) {
    stamps->origin = pts + dur;
    stamps->frames = 0;
    stamps->last_start = pts + dur;
  }
  stamps->frames++;
  stamps->last_pts = pts;
  down = gst_util_uint64_scale (stamps->frames, GST_SECOND * fps_d, fps_n);
  up = gst_util_uint64_scale_ceil (stamps->frames, GST_SECOND * fps_d, fps_n);
  if (stamps->origin < up || stamps->origin - down != pts) {
    /* not the frame computed: stamped as it came, a new run from it */
    stamps->frames = 0;
    return;
  }
  start = stamps->origin - up;
  GST_BUFFER_PTS (outbuf) = start;
  GST_BUFFER_DURATION (outbuf) = stamps->last_start - start;
  stamps->last_start = start;
}
