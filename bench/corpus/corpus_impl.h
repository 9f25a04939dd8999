/* corpus_impl.h — the reader's state, shared by corpus.c (open, read, close), corpus_table.c (the problem
 * table read and checked) and corpus_check.c (the whole file read through in a child process first).
 * Internal to bench/corpus. */
#ifndef CB_CORPUS_IMPL_H
#define CB_CORPUS_IMPL_H

#include "corpus_layout.h"

#include <sys/types.h>

#define CORPUS_WHY 200 /* room for the reason a problem is corrupt */

struct corpus {
  hid_t file, values, indices, text;
  int version, n;
  off_t file_size;
  hsize_t n_values, n_indices, n_text; /* what may be read: the committed sizes, within the stored data */
  long uncommitted;                    /* table rows past the committed count (ignored) */
  struct corpus_meta *meta;
  struct corpus_slot *at;  /* versions 2, 3: where each problem's data is */
  char (*why)[CORPUS_WHY]; /* "" or why problem i is corrupt (its data is then never read) */
};

/* corpus.c: opens path in this process with libhdf5 and reads its problem table (the checked reader's child
 * does; corpus_open's process never reads the table itself). 0, or 2 with err. */
int corpus_open_here(const char *path, struct corpus **c, char *err, size_t len);
/* Checks a problem's data as read (finite, bounds of its kind; for a callback problem its bounds and z0):
 * 0 ("" in why) when it is fine, else 1 with the reason in why. */
int corpus_check_linear(const struct cp_problem *p, char *why, size_t len);
/* The friction indices a linear problem stores after its matrix (as doubles): n for kind boxed, else 0. */
int64_t corpus_findex_count(const struct corpus_meta *m);
int corpus_check_callback(const struct corpus_callback *cb, int n, char *why, size_t len);

/* corpus_table.c: the version 2 / 3 problem table of the open file c->file: the datasets' sizes against the
 * file's size and stored chunks, then each row's fields and sizes against the schema and the datasets (a bad
 * row is a corrupt problem, c->why). 0, or 1 with err (the file itself is damaged). Checks across rows are
 * corpus_table_check_across's. */
int corpus_table_read(struct corpus *c, const char *path, char *err, size_t len);
/* The checks of a version 1 file's rows (its problems' fields). */
void corpus_table_check_v1(struct corpus *c);
/* The checks across problems, after each one's data has been checked: data regions that overlap, names
 * given twice. */
void corpus_table_check_across(struct corpus *c);

/* corpus_check.c: runs corpus_open_here and reads every problem's data in a child process (libhdf5 then
 * crashes, hangs or runs out of memory there, not here), filling c's table from it. 0, or 2 with err. */
int corpus_check_file(const char *path, struct corpus *c, char *err, size_t len);

#endif
