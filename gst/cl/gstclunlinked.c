/* gstclfilters: inputs of a mixer that nothing feeds
 * Copyright (C) 2026 gstclfilters contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A mixer's sink pads always exist (clcomposite's sink_0 and sink_1), and
 * GstAggregator waits for data on every pad that has not ended, so an
 * input left unlinked would stall the others for good. Once an input is
 * linked and another has stayed unlinked for a grace period (time for a
 * decodebin's pads to be linked), the element ends the unlinked pad's
 * stream itself: the linked inputs go on without it (the subclass gets no
 * frame for it) and the output ends with them. A stream that arrives on
 * that pad later flushes the end away first. A flushing seek, which comes
 * back as a flush on every linked pad only, flushes the unlinked ones too.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclcore.h"
#include "gstclunlinked.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_unlinked_debug);
#define GST_CAT_DEFAULT gst_cl_unlinked_debug

#define UNLINKED_GRACE (500 * GST_MSECOND)
#define UNLINKED_STREAM "/unlinked-by-clfilters"

struct _GstClUnlinked
{
  GstElement *element;          /* not a reference: it owns this */
  GstPad *pads[GST_CL_CORE_MAX_INPUTS];
  guint n_pads;

  GMutex lock;
  gboolean watching;            /* PAUSED or PLAYING */
  GstClockID timer;
  /* the pads whose streams the element ended */
  gboolean ended[GST_CL_CORE_MAX_INPUTS];
};

static guint
pad_index (GstClUnlinked * u, GstPad * pad)
{
  guint i;

  for (i = 0; i < u->n_pads && u->pads[i] != pad; i++);
  return i;
}

/* With the lock held: a whole empty stream into @pad */
static void
end_stream (GstClUnlinked * u, GstPad * pad)
{
  gchar *stream_id = g_strconcat (GST_ELEMENT_NAME (u->element), "/",
      GST_PAD_NAME (pad), UNLINKED_STREAM, NULL);
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_pad_send_event (pad, gst_event_new_stream_start (stream_id));
  gst_pad_send_event (pad, gst_event_new_segment (&segment));
  gst_pad_send_event (pad, gst_event_new_eos ());
  g_free (stream_id);
}

/* the grace is over: called with a reference to the element, so @u lives */
static gboolean
end_unlinked_pads (GstClock * clock, GstClockTime time, GstClockID id,
    gpointer user_data)
{
  GstClUnlinked *u = user_data;
  gboolean linked[GST_CL_CORE_MAX_INPUTS], any = FALSE;
  guint i;

  g_mutex_lock (&u->lock);
  for (i = 0; i < u->n_pads; i++)
    any |= linked[i] = gst_pad_is_linked (u->pads[i]);
  /* with none linked yet, all may still be: the next link restarts the
   * grace */
  for (i = 0; u->timer == id && any && i < u->n_pads; i++) {
    if (u->ended[i] || linked[i])
      continue;
    GST_INFO_OBJECT (u->pads[i], "not linked: ending its stream");
    u->ended[i] = TRUE;
    end_stream (u, u->pads[i]);
  }
  g_mutex_unlock (&u->lock);
  return TRUE;
}

static void
release_element (gpointer user_data)
{
  gst_object_unref (((GstClUnlinked *) user_data)->element);
}

/* With the lock held: (re)starts the grace where a pad is unlinked. */
static void
schedule_check (GstClUnlinked * u)
{
  GstClock *clock;
  guint i;

  if (u->timer) {
    gst_clock_id_unschedule (u->timer);
    gst_clock_id_unref (u->timer);
    u->timer = NULL;
  }
  for (i = 0; i < u->n_pads && gst_pad_is_linked (u->pads[i]); i++);
  if (!u->watching || i == u->n_pads)
    return;
  clock = gst_system_clock_obtain ();
  u->timer = gst_clock_new_single_shot_id (clock,
      gst_clock_get_time (clock) + UNLINKED_GRACE);
  /* the wait holds a reference to the element, so @u outlives it */
  gst_object_ref (u->element);
  gst_clock_id_wait_async (u->timer, end_unlinked_pads, u, release_element);
  gst_object_unref (clock);
}

/* "linked" and "unlinked": the grace starts again */
static void
pad_linked (GstPad * pad, GstPad * peer, GstClUnlinked * u)
{
  g_mutex_lock (&u->lock);
  schedule_check (u);
  g_mutex_unlock (&u->lock);
}

/* A flush of @pad, as upstream would send for the seek @seqnum (with
 * @reset_time), or for none (GST_SEQNUM_INVALID) */
static void
flush_pad (GstPad * pad, guint32 seqnum, gboolean reset_time)
{
  GstEvent *start = gst_event_new_flush_start ();
  GstEvent *stop = gst_event_new_flush_stop (reset_time);

  if (seqnum != GST_SEQNUM_INVALID) {
    gst_event_set_seqnum (start, seqnum);
    gst_event_set_seqnum (stop, seqnum);
  }
  gst_pad_send_event (pad, start);
  gst_pad_send_event (pad, stop);
}

/* The first event of a stream on a pad whose stream the element ended, in
 * the thread of the upstream that sends it: a flush takes the end away. */
static GstPadProbeReturn
stream_after_end (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstClUnlinked *u = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  guint i = pad_index (u, pad);
  const gchar *stream_id = NULL;
  gboolean ended;

  if (GST_EVENT_TYPE (event) != GST_EVENT_STREAM_START || i == u->n_pads)
    return GST_PAD_PROBE_OK;
  gst_event_parse_stream_start (event, &stream_id);
  /* the element's own, sent with the lock held */
  if (stream_id && g_str_has_suffix (stream_id, UNLINKED_STREAM))
    return GST_PAD_PROBE_OK;
  g_mutex_lock (&u->lock);
  ended = u->ended[i];
  u->ended[i] = FALSE;
  g_mutex_unlock (&u->lock);
  if (ended) {
    GST_INFO_OBJECT (pad, "a stream after its end: flushing the end away");
    flush_pad (pad, GST_SEQNUM_INVALID, FALSE);
  }
  return GST_PAD_PROBE_OK;
}

/**
 * gst_cl_unlinked_new:
 * @element: the mixer, which owns what this returns
 * @pads: (array length=n_pads): its always sink pads
 *
 * Watches @pads for an input left unlinked (see the top of this file),
 * once gst_cl_unlinked_watch() says the element is running.
 *
 * Returns: (transfer full): the watch, for gst_cl_unlinked_free()
 */
GstClUnlinked *
gst_cl_unlinked_new (GstElement * element, GstPad ** pads, guint n_pads)
{
  GstClUnlinked *u = g_new0 (GstClUnlinked, 1);
  guint i;

  if (!gst_cl_unlinked_debug)
    GST_DEBUG_CATEGORY_INIT (gst_cl_unlinked_debug, "clunlinked", 0,
        "a mixer's inputs left unlinked");
  g_return_val_if_fail (n_pads <= GST_CL_CORE_MAX_INPUTS, u);
  u->element = element;
  u->n_pads = n_pads;
  g_mutex_init (&u->lock);
  for (i = 0; i < n_pads; i++) {
    u->pads[i] = pads[i];
    g_signal_connect (pads[i], "linked", G_CALLBACK (pad_linked), u);
    g_signal_connect (pads[i], "unlinked", G_CALLBACK (pad_linked), u);
    gst_pad_add_probe (pads[i], GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
        stream_after_end, u, NULL);
  }
  return u;
}

/**
 * gst_cl_unlinked_free:
 *
 * From the element's finalize: no grace runs then, as each holds a
 * reference to the element.
 */
void
gst_cl_unlinked_free (GstClUnlinked * u)
{
  if (!u)
    return;
  g_mutex_clear (&u->lock);
  g_free (u);
}

/**
 * gst_cl_unlinked_watch:
 * @watch: %TRUE once the element is PAUSED, %FALSE on its way to READY
 *
 * Starts or stops the grace, and forgets the streams ended.
 */
void
gst_cl_unlinked_watch (GstClUnlinked * u, gboolean watch)
{
  g_mutex_lock (&u->lock);
  u->watching = watch;
  memset (u->ended, 0, sizeof (u->ended));
  schedule_check (u);
  g_mutex_unlock (&u->lock);
}

/**
 * gst_cl_unlinked_flush:
 * @seqnum: the flushing seek's
 *
 * After a flushing seek went upstream: GstAggregator waits for its flush on
 * every pad, an unlinked one too, which never gets one from upstream. Each
 * unlinked pad gets one, and its stream ends again where it had.
 */
void
gst_cl_unlinked_flush (GstClUnlinked * u, guint32 seqnum)
{
  guint i;

  g_mutex_lock (&u->lock);
  for (i = 0; i < u->n_pads; i++) {
    if (gst_pad_is_linked (u->pads[i]))
      continue;
    GST_DEBUG_OBJECT (u->pads[i], "not linked: flushing it for the seek");
    flush_pad (u->pads[i], seqnum, TRUE);
    if (u->ended[i])
      end_stream (u, u->pads[i]);
  }
  g_mutex_unlock (&u->lock);
}
