/* extsort.h — an external merge sort of text lines in byte order (strcmp), for the readers of a run's
 * tables that must bring rows together (bench_compare pairs a group's tasks of two runs; duplicate checks)
 * without holding the table: lines are kept up to a memory budget, each full chunk is sorted and written to
 * an unlinked temporary file ($TMPDIR, else /tmp), and the chunks are merged as they are read back.
 * Memory: the budget, plus a line buffer per chunk on disk. Cost O(N log N). A line holds no '\n'; lines
 * that compare equal come back in no particular order (callers make keys unique, e.g. with a row number). */
#ifndef CB_EXTSORT_H
#define CB_EXTSORT_H

#include <stddef.h>

struct extsort;

/* A sorter holding at most about budget bytes of lines in memory. NULL when out of memory. */
struct extsort *extsort_create(size_t budget);
/* Adds a line (copied). 0, or 1 with a message (out of memory, temporary file not writable). */
int extsort_add(struct extsort *s, const char *line);
/* Ends the input: 0, or 1 with a message. Then extsort_next returns the lines in order. */
int extsort_finish(struct extsort *s);
/* The next line (valid until the next call), NULL at the end or on a read error (extsort_failed). */
const char *extsort_next(struct extsort *s);
/* 1 when reading back a chunk failed (a message was printed). */
int extsort_failed(const struct extsort *s);
/* How many chunks went to disk (0: the lines fitted the budget). */
int extsort_chunks(const struct extsort *s);
void extsort_destroy(struct extsort **s);

#endif
