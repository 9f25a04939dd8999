/* corpus_stream.h — captured problems as a byte stream on a pipe. A forked task sends each problem it
 * captures (corpus_stream_put: one record, no HDF5 in the child); the process that forked it reads the
 * records as they come (corpus_stream_take) and appends them to the one corpus writer it keeps open for the
 * whole run. Why: a writer opened in a freshly forked task cost 5-10 ms (library state touched after fork,
 * fresh batch buffers: page faults), more than a short task's whole capture; the parent's writer and its
 * buffers stay warm from task to task. Both ends are the same binary, so a record is the problem's fixed
 * part (struct corpus_meta as it is in memory) followed by its arrays; it is not a file format. */
#ifndef CB_CORPUS_STREAM_H
#define CB_CORPUS_STREAM_H

#include "corpus.h"

#include <stddef.h>

/* The writing end: records are gathered in buf (CORPUS_STREAM_BUFFER bytes) and written when it is full
 * and at corpus_stream_flush, so the reader is woken once per 32 kB, not once per problem (~60 us a
 * problem on a loaded 2-core machine when every record woke it); a small buffer, since each forked task
 * pays a page fault per page it touches first. A record larger than the buffer is written at once. */
#define CORPUS_STREAM_BUFFER (32 * 1024)
struct corpus_stream_out {
  int fd;
  char *buf; /* malloc'd at the first record */
  size_t len;
};

/* Adds one record: p linear (M, q, lo, hi), or p a callback problem with its rebuild data cb (NULL:
 * recorded without data, captured 0). 0, or 1 when a write failed (the reader is gone). */
int corpus_stream_put(struct corpus_stream_out *o, const struct cp_problem *p, const struct corpus_meta *m,
                      const struct corpus_callback *cb);
/* Writes what is gathered (blocking until it is all written): 0, or 1. */
int corpus_stream_flush(struct corpus_stream_out *o);

/* The reading end's state: the bytes of the record being received. */
struct corpus_stream {
  char *buf;
  size_t len, cap;
};

/* What corpus_stream_take does with each whole record it has read: 0 to go on, nonzero to stop reading. */
typedef int (*corpus_stream_sink)(void *ctx, const struct cp_problem *p, const struct corpus_meta *m,
                                  const struct corpus_callback *cb);

/* Reads what fd (non-blocking) holds now and hands every whole record to sink. Returns 0 (more may come),
 * 1 at end of file (the writer closed or died: a partial record is dropped), 2 when a record is malformed
 * (its length or sizes do not add up) or the sink asked to stop. */
int corpus_stream_take(struct corpus_stream *s, int fd, corpus_stream_sink sink, void *ctx);
void corpus_stream_free(struct corpus_stream *s);

#endif
