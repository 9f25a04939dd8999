/* corpus_merge.c — corpora joined into one (corpus.h): every input through the checked reader into one
 * writer on a temporary file beside the output, renamed over the output only once everything is written, so
 * a merge that fails half-way leaves the output as it was. An output that exists is read first (its
 * problems keep their names). The same file twice (the output among the inputs, or an input listed twice,
 * by any path: compared by device and inode) is refused, since it would double its problems. */
#include "corpus_impl.h"
#include "corpus_lock.h"
#include "run_files.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int same_file(const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* 0 when no file comes twice among out (when it exists) and the inputs; else 2 with err naming both. */
static int refuse_twice(const char *out, const char *const *in, int n_in, char *err, size_t len)
{
  struct stat so, *s = calloc((size_t)n_in + 1, sizeof *s);
  int *have = calloc((size_t)n_in + 1, sizeof *have), rc = 0;
  const int out_exists = stat(out, &so) == 0;
  if (!s || !have) rc = (corpus_fail(err, len, "out of memory"), 2);
  for (int k = 0; k < n_in && !rc; k++) {
    have[k] = stat(in[k], &s[k]) == 0;
    if (!have[k]) continue;
    if (out_exists && same_file(&so, &s[k]))
      rc = (corpus_fail(err, len,
                        "%s is also an input (%s): a file merged into itself would double its problems (the "
                        "output's problems are kept anyway)",
                        out, in[k]),
            2);
    for (int j = 0; j < k && !rc; j++)
      if (have[j] && same_file(&s[j], &s[k]))
        rc = (corpus_fail(err, len,
                          "%s and %s are the same file: an input listed twice would double its problems",
                          in[j], in[k]),
              2);
  }
  free(s);
  free(have);
  return rc;
}

/* Every problem of the corpus at path into w (k >= 0: an input's index, the suffix of a clashing name);
 * corrupt problems are left out with a note. 0; 2 with err for a bad input, 1 when writing failed. */
static int copy_in(struct corpus_writer *w, const char *path, int k, char *err, size_t len)
{
  struct corpus *c = NULL;
  if (corpus_open(path, &c, err, len)) return 2;
  int rc = 0;
  for (int i = 0; i < corpus_count(c) && !rc; i++) {
    struct corpus_meta m = *corpus_meta_at(c, i);
    const char *why = corpus_corrupt(c, i);
    if (why) {
      char shown[64];
      run_text_shown(m.name, shown, sizeof shown);
      fprintf(stderr, "note: -merge: %s: problem %d (%s) left out: corrupt: %s\n", path, i, shown, why);
      continue;
    }
    if (k >= 0 && corpus_writer_has(w, m.name))
      snprintf(m.name, sizeof m.name, "%.100s_in%d", c->meta[i].name, k);
    struct cp_problem *p = NULL;
    struct corpus_callback cb = {0};
    if (m.captured == 1 && corpus_read(c, i, &p, err, len)) rc = 2;
    if (m.captured == 2 && corpus_read_callback(c, i, &cb, err, len)) rc = 2;
    if (!rc && corpus_writer_add_callback(w, p, &m, m.captured == 2 ? &cb : NULL, 0, err, len)) rc = 1;
    corpus_callback_free(&cb);
    cp_destroy(&p);
  }
  corpus_close(&c);
  return rc;
}

/* A new file name beside out (mkstemp's, the file itself removed again: the writer creates it). 0, or 1. */
static int temporary_beside(const char *out, char *tmp, size_t len)
{
  char *copy = strdup(out), *copy2 = strdup(out);
  int rc = !copy || !copy2 ||
           snprintf(tmp, len, "%s/.%s.merge-XXXXXX", dirname(copy), basename(copy2)) >= (int)len;
  free(copy);
  free(copy2);
  int fd = rc ? -1 : mkstemp(tmp);
  if (fd < 0) return 1;
  close(fd);
  unlink(tmp);
  return 0;
}

int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len)
{
  char tmp[1100];
  int lock = -1, rc = refuse_twice(out, in, n_in, err, len);
  if (rc) return rc;
  if (corpus_lock_take(out, &lock, err, len)) return 2;
  struct corpus_writer *w = NULL;
  if (temporary_beside(out, tmp, sizeof tmp)) {
    rc = corpus_fail(err, len, "%s: cannot make a temporary file beside it: %s", out, strerror(errno));
  } else if (corpus_writer_open(tmp, &w, err, len)) {
    rc = 1;
  } else {
    if (access(out, F_OK) == 0) rc = copy_in(w, out, -1, err, len);
    for (int k = 0; k < n_in && !rc; k++)
      rc = copy_in(w, in[k], k, err, len);
    if (corpus_writer_close(&w, rc ? NULL : err, len) && !rc) rc = 1;
    if (!rc && rename(tmp, out) != 0)
      rc = corpus_fail(err, len, "%s: cannot rename %s to it: %s", out, tmp, strerror(errno));
    if (rc) unlink(tmp);
  }
  corpus_lock_release(out, &lock);
  return rc;
}
