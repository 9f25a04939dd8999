/* corpus_write.c — the corpus writer (corpus.h, layout in corpus_layout.h): problems are buffered and
 * appended in batches to the four datasets, values, indices and name hashes first, the table rows last, then
 * one H5Fflush; HDF5 is not called between batches, so a killed run leaves a file whose every batch but the
 * last is readable. A problem costs a copy of its data into the batch (one pass over M), not the creation
 * of ~25 HDF5 objects and a flush (schema version 1: 0.6-0.9 ms a problem). */
#include "corpus_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the names in a file (a duplicate is refused) ---- */

/* FNV-1a, 64 bits: the /name_hash of a problem. */
static uint64_t name_hash(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

/* The names' hashes, each with its problem's index (in the file, then in the batch): open addressing, at
 * most half full, row -1 marks a free slot. A writer opening a file reads /name_hash (8 bytes a problem),
 * not the names (reading one field of the 1.1 kB rows costs ~3 us a problem: 30 ms for 10000). */
struct names {
  uint64_t *hash;
  long *row;
  size_t cap, n;
};

/* Grows the table to hold at least want names (a power of two, at most half full). */
static int names_grow(struct names *s, size_t want);

static int names_insert(struct names *s, uint64_t h, long row)
{
  if (2 * (s->n + 1) > s->cap && names_grow(s, s->n + 1)) return 1;
  size_t j = (size_t)h & (s->cap - 1);
  while (s->row[j] >= 0)
    j = (j + 1) & (s->cap - 1);
  s->hash[j] = h;
  s->row[j] = row;
  s->n++;
  return 0;
}

static int names_grow(struct names *s, size_t want)
{
  if (2 * want <= s->cap) return 0;
  size_t cap = s->cap ? s->cap : 1024;
  while (cap < 2 * want)
    cap *= 2;
  struct names g = {malloc(cap * sizeof *g.hash), malloc(cap * sizeof *g.row), cap, 0};
  if (!g.hash || !g.row) {
    free(g.hash);
    free(g.row);
    return 1;
  }
  for (size_t i = 0; i < cap; i++)
    g.row[i] = -1;
  for (size_t i = 0; i < s->cap; i++)
    if (s->row[i] >= 0) names_insert(&g, s->hash[i], s->row[i]);
  free(s->hash);
  free(s->row);
  *s = g;
  return 0;
}

static void names_free(struct names *s)
{
  free(s->hash);
  free(s->row);
  memset(s, 0, sizeof *s);
}

/* ---- writing ---- */

struct corpus_writer {
  hid_t file, problems, values, indices, hashes, text, row_t;
  char path[1024];
  hsize_t n_problems, n_values, n_indices, n_hashes, n_text; /* in the file */
  struct row *rows;                                          /* the batch not yet written */
  uint64_t *hash;                                            /* its names' hashes */
  double *val;
  int32_t *idx;
  unsigned char *txt; /* callback problems' world and options text */
  size_t n_rows, n_val, n_idx, n_txt, cap_rows, cap_val, cap_idx, cap_hash, cap_txt;
  struct names names;
  double last_flush;
};

/* Makes room for more elements in a growing buffer of element size sz. */
static int reserve(void **buf, size_t *cap, size_t used, size_t more, size_t sz)
{
  if (used + more <= *cap) return 0;
  size_t c = *cap ? *cap : 1024;
  while (c < used + more)
    c *= 2;
  void *b = realloc(*buf, c * sz);
  if (!b) return 1;
  *buf = b;
  *cap = c;
  return 0;
}

/* 1 when a problem named name is in the file or the batch (a hash match is confirmed on the name). */
static int writer_has(const struct corpus_writer *w, const char *name)
{
  const struct names *s = &w->names;
  const uint64_t h = name_hash(name);
  for (size_t j = s->cap ? (size_t)h & (s->cap - 1) : 0; s->cap && s->row[j] >= 0;
       j = (j + 1) & (s->cap - 1)) {
    if (s->hash[j] != h) continue;
    long r = s->row[j];
    if (r >= (long)w->n_problems) { /* in the batch (an index past it: a batch that failed to write) */
      if (r - (long)w->n_problems < (long)w->n_rows &&
          strcmp(w->rows[r - (long)w->n_problems].name, name) == 0)
        return 1;
      continue;
    }
    char nm[sizeof(((struct row *)0)->name)] = "";
    hsize_t off = (hsize_t)r, one = 1;
    hid_t nt = corpus_name_type(), fs = H5Dget_space(w->problems), ms = H5Screate_simple(1, &one, NULL);
    int bad = H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &one, NULL) < 0 ||
              H5Dread(w->problems, nt, ms, fs, H5P_DEFAULT, nm) < 0;
    H5Sclose(ms);
    H5Sclose(fs);
    H5Tclose(nt);
    nm[sizeof nm - 1] = '\0';
    if (bad || strcmp(nm, name) == 0) return 1; /* unreadable: refused rather than risk a duplicate */
  }
  return 0;
}

/* Writes the batch: values and indices first, the table rows last (a reader sees a problem only once its
 * data is there), then flushes, so the file on disk is whole again. */
static int write_batch(struct corpus_writer *w)
{
  if (w->n_rows == 0) return 0;
  int rc = corpus_append_slice(w->values, H5T_NATIVE_DOUBLE, &w->n_values, w->n_val, w->val) ||
           corpus_append_slice(w->indices, H5T_NATIVE_INT32, &w->n_indices, w->n_idx, w->idx) ||
           corpus_append_slice(w->text, H5T_NATIVE_UCHAR, &w->n_text, w->n_txt, w->txt) ||
           corpus_append_slice(w->hashes, H5T_NATIVE_UINT64, &w->n_hashes, w->n_rows, w->hash) ||
           corpus_append_slice(w->problems, w->row_t, &w->n_problems, w->n_rows, w->rows) ||
           H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0;
  w->n_rows = w->n_val = w->n_idx = w->n_txt = 0;
  w->last_flush = now();
  return rc;
}

static void writer_free(struct corpus_writer *w)
{
  if (w->problems >= 0) H5Dclose(w->problems);
  if (w->values >= 0) H5Dclose(w->values);
  if (w->indices >= 0) H5Dclose(w->indices);
  if (w->hashes >= 0) H5Dclose(w->hashes);
  if (w->text >= 0) H5Dclose(w->text);
  if (w->row_t >= 0) H5Tclose(w->row_t);
  free(w->txt);
  free(w->rows);
  free(w->hash);
  free(w->val);
  free(w->idx);
  names_free(&w->names);
  free(w);
}

/* Opens an existing version 2 file: its datasets, their sizes and the names already there. */
static int open_existing(struct corpus_writer *w, char *err, size_t len)
{
  w->file = H5Fopen(w->path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (w->file < 0) return corpus_fail(err, len, "%s: not a readable HDF5 corpus", w->path);
  long v = corpus_get_version(w->file);
  if (v != CORPUS_SCHEMA_VERSION)
    return corpus_fail(
        err, len,
        "%s: schema version %ld, this build writes %d (bench_corpus -merge NEW.h5 %s converts a "
        "version 1 file)",
        w->path, v, CORPUS_SCHEMA_VERSION, w->path);
  w->problems = H5Dopen2(w->file, "problems", H5P_DEFAULT);
  w->values = H5Dopen2(w->file, "values", H5P_DEFAULT);
  w->indices = H5Dopen2(w->file, "indices", H5P_DEFAULT);
  if (w->problems < 0 || w->values < 0 || w->indices < 0 || corpus_extent(w->problems, &w->n_problems) ||
      corpus_extent(w->values, &w->n_values) || corpus_extent(w->indices, &w->n_indices))
    return corpus_fail(err, len, "%s: not a corpus (datasets problems, values, indices)", w->path);
  w->hashes = H5Dopen2(w->file, "name_hash", H5P_DEFAULT);
  if (w->hashes < 0 || corpus_extent(w->hashes, &w->n_hashes) || w->n_hashes < w->n_problems)
    return corpus_fail(err, len, "%s: not a corpus (dataset name_hash)", w->path);
  w->text = H5Dopen2(w->file, "text", H5P_DEFAULT);
  if (w->text < 0 || corpus_extent(w->text, &w->n_text))
    return corpus_fail(err, len, "%s: not a corpus (dataset text)", w->path);
  /* (a writer killed inside a batch may have left more hashes than rows: the rows count) */
  w->n_hashes = w->n_problems;
  uint64_t *h = malloc((w->n_problems + 1) * sizeof *h);
  int rc = !h || names_grow(&w->names, w->n_problems + CORPUS_BATCH_PROBLEMS) ||
           corpus_read_slice(w->hashes, H5T_NATIVE_UINT64, w->n_problems, 0, (int64_t)w->n_problems, h);
  for (hsize_t i = 0; i < w->n_problems && !rc; i++)
    rc = names_insert(&w->names, h[i], (long)i);
  free(h);
  return rc ? corpus_fail(err, len, "%s: cannot read the problem names' hashes", w->path) : 0;
}

static int create_new(struct corpus_writer *w, hid_t fapl, char *err, size_t len)
{
  w->file = H5Fcreate(w->path, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
  if (w->file < 0) return corpus_fail(err, len, "%s: cannot create", w->path);
  /* no filter (deflate's set-up per chunk cost ~2 ms a batch) and the file's row type is the memory one
   * (not packed: a few bytes of padding), so a write converts nothing */
  w->problems = corpus_make_dataset(w->file, "problems", w->row_t, 64);
  w->values = corpus_make_dataset(w->file, "values", H5T_IEEE_F64LE, 32768);
  w->indices = corpus_make_dataset(w->file, "indices", H5T_STD_I32LE, 16384);
  w->hashes = corpus_make_dataset(w->file, "name_hash", H5T_STD_U64LE, 4096);
  w->text = corpus_make_dataset(w->file, "text", H5T_STD_U8LE, 65536);
  /* flushed empty: a run killed before its first batch leaves a readable corpus of 0 problems */
  if (w->problems < 0 || w->values < 0 || w->indices < 0 || w->hashes < 0 || w->text < 0 ||
      corpus_put_version(w->file) || H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
    return corpus_fail(err, len, "%s: cannot create the datasets", w->path);
  return 0;
}

/* Opens a writer on path; fapl: HDF5's file access (H5P_DEFAULT, or the in-memory driver of corpus_init). */
static int writer_open(const char *path, hid_t fapl, struct corpus_writer **out, char *err, size_t len)
{
  corpus_quiet();
  struct corpus_writer *w = calloc(1, sizeof *w);
  *out = NULL;
  if (!w) {
    corpus_fail(err, len, "out of memory");
    return 1;
  }
  w->file = w->problems = w->values = w->indices = w->hashes = w->text = -1;
  w->row_t = corpus_row_type();
  snprintf(w->path, sizeof w->path, "%s", path);
  int rc = fapl == H5P_DEFAULT && access(path, F_OK) == 0 ? open_existing(w, err, len)
                                                          : create_new(w, fapl, err, len);
  if (rc) {
    hid_t f = w->file;
    writer_free(w);
    if (f >= 0) H5Fclose(f);
    return 1;
  }
  w->last_flush = now();
  *out = w;
  return 0;
}

/* Appends q, lo, hi and the matrix of p to the batch: CSR when under a quarter of M is nonzero, else dense.
 * One branch-free pass builds the CSR form in the batch buffers (room for a full matrix is reserved), and
 * a dense matrix then overwrites it: the cost is one read of M, not a count and a second pass. */
static int add_matrix(struct corpus_writer *w, const struct cp_problem *p, struct row *r)
{
  const int n = p->n;
  const size_t nn = (size_t)n * (size_t)n;
  if (reserve((void **)&w->val, &w->cap_val, w->n_val, 3 * (size_t)n + nn, sizeof *w->val) ||
      reserve((void **)&w->idx, &w->cap_idx, w->n_idx, (size_t)n + 1 + nn, sizeof *w->idx))
    return 1;
  r->values_offset = (int64_t)(w->n_values + w->n_val);
  double *v = w->val + w->n_val, *val = v + 3 * n;
  memcpy(v, p->q, (size_t)n * sizeof *v);
  memcpy(v + n, p->lo, (size_t)n * sizeof *v);
  memcpy(v + 2 * n, p->hi, (size_t)n * sizeof *v);
  int32_t *ptr = w->idx + w->n_idx, *col = ptr + n + 1;
  size_t k = 0;
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * n;
    ptr[i] = (int32_t)k;
    for (int j = 0; j < n; j++) {
      col[k] = j;
      val[k] = row[j];
      k += row[j] != 0.0;
    }
  }
  ptr[n] = (int32_t)k;
  w->n_val += 3 * (size_t)n;
  if (4 * k >= nn) {
    memcpy(val, p->M, nn * sizeof *val);
    snprintf(r->m_format, sizeof r->m_format, "%s", corpus_fmt_text[FMT_DENSE]);
    w->n_val += nn;
    return 0;
  }
  snprintf(r->m_format, sizeof r->m_format, "%s", corpus_fmt_text[FMT_CSR]);
  r->indices_offset = (int64_t)(w->n_indices + w->n_idx);
  r->nnz = (int64_t)k;
  w->n_idx += (size_t)n + 1 + k;
  w->n_val += k;
  return 0;
}

int corpus_writer_open(const char *path, struct corpus_writer **out, char *err, size_t len)
{
  return writer_open(path, H5P_DEFAULT, out, err, len);
}

/* Appends a rebuildable callback problem's data to the batch (layout: corpus.h, captured 2). */
static int add_callback(struct corpus_writer *w, const struct corpus_callback *cb, int n, struct row *r)
{
  const size_t nv = 4 * (size_t)n + (size_t)cb->carry_n, nt = cb->world_len + cb->options_len;
  if (reserve((void **)&w->val, &w->cap_val, w->n_val, nv, sizeof *w->val) ||
      reserve((void **)&w->txt, &w->cap_txt, w->n_txt, nt, sizeof *w->txt))
    return 1;
  r->values_offset = (int64_t)(w->n_values + w->n_val);
  double *v = w->val + w->n_val;
  memcpy(v, cb->lo, (size_t)n * sizeof *v);
  memcpy(v + n, cb->hi, (size_t)n * sizeof *v);
  memcpy(v + 2 * n, cb->z0, (size_t)n * sizeof *v);
  memcpy(v + 3 * n, cb->Fz0, (size_t)n * sizeof *v);
  if (cb->carry_n) memcpy(v + 4 * n, cb->carry, (size_t)cb->carry_n * sizeof *v);
  w->n_val += nv;
  r->text_offset = (int64_t)(w->n_text + w->n_txt);
  memcpy(w->txt + w->n_txt, cb->world, cb->world_len);
  memcpy(w->txt + w->n_txt + cb->world_len, cb->options, cb->options_len);
  w->n_txt += nt;
  r->world_len = (int32_t)cb->world_len;
  r->options_len = (int32_t)cb->options_len;
  r->carry_n = cb->carry_n;
  r->warm = cb->warm;
  return 0;
}

int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len)
{
  return corpus_writer_add_callback(w, p, m, NULL, cap, err, len);
}

int corpus_writer_add_callback(struct corpus_writer *w, const struct cp_problem *p,
                               const struct corpus_meta *m, const struct corpus_callback *cb, long cap,
                               char *err, size_t len)
{
  if (cb && (cb->world_len > INT32_MAX || cb->options_len > INT32_MAX || cb->carry_n < 0))
    return corpus_fail(err, len, "%s: the callback problem's text is too long", m->name);
  if (cap > 0 && (long)(w->n_problems + w->n_rows) >= cap) return 3;
  if (writer_has(w, m->name))
    return corpus_fail(err, len, "%s: a problem named %s is already there", w->path, m->name);
  if (reserve((void **)&w->rows, &w->cap_rows, w->n_rows, 1, sizeof *w->rows) ||
      reserve((void **)&w->hash, &w->cap_hash, w->n_rows, 1, sizeof *w->hash))
    return corpus_fail(err, len, "out of memory");
  struct row *r = memset(&w->rows[w->n_rows], 0, sizeof *w->rows);
  snprintf(r->name, sizeof r->name, "%s", m->name);
  snprintf(r->kind, sizeof r->kind, "%s", p ? corpus_kind_text(p->kind) : m->kind);
  snprintf(r->driver, sizeof r->driver, "%s", m->driver);
  snprintf(r->formulation, sizeof r->formulation, "%s", m->formulation);
  snprintf(r->solver, sizeof r->solver, "%s", m->solver);
  snprintf(r->status, sizeof r->status, "%s", m->status);
  snprintf(r->axes, sizeof r->axes, "%s", m->axes);
  snprintf(r->git_sha, sizeof r->git_sha, "%s", m->git_sha);
  snprintf(r->m_format, sizeof r->m_format, "%s", corpus_fmt_text[FMT_NONE]);
  r->h = m->h;
  r->t = m->t;
  r->step = m->step;
  r->task_id = m->task_id;
  r->seed = m->seed;
  for (int k = 0; k < 6; k++)
    r->rows[k] = m->rows[k];
  r->n = p ? p->n : m->n;
  r->n_eq = p ? p->n_eq : m->n_eq;
  r->captured = p && cp_is_linear(p) ? 1 : cb ? 2 : 0;
  r->values_offset = r->indices_offset = r->text_offset = -1;
  w->hash[w->n_rows] = name_hash(r->name);
  if ((r->captured == 1 && add_matrix(w, p, r)) || (r->captured == 2 && add_callback(w, cb, r->n, r)) ||
      names_insert(&w->names, w->hash[w->n_rows], (long)(w->n_problems + w->n_rows)))
    return corpus_fail(err, len, "out of memory");
  w->n_rows++;
  size_t bytes =
      w->n_rows * sizeof *w->rows + w->n_val * sizeof *w->val + w->n_idx * sizeof *w->idx + w->n_txt;
  if (w->n_rows >= CORPUS_BATCH_PROBLEMS || bytes >= (size_t)CORPUS_BATCH_BYTES ||
      now() - w->last_flush >= CORPUS_BATCH_SECONDS) {
    if (write_batch(w))
      return corpus_fail(err, len, "%s: cannot write the batch ending with %s", w->path, m->name);
  }
  return 0;
}

int corpus_writer_has(const struct corpus_writer *w, const char *name) { return writer_has(w, name); }

int corpus_writer_close(struct corpus_writer **w)
{
  if (!w || !*w) return 0;
  int rc = write_batch(*w);
  hid_t f = (*w)->file;
  writer_free(*w);
  rc |= H5Fclose(f) < 0;
  *w = NULL;
  return rc;
}

int corpus_init(void)
{
  /* The first writer in a process pays the library's start and its lazily bound functions (~4 ms); one
   * problem written here to an in-memory file (HDF5's core driver, nothing on disk) leaves that done for
   * every task forked afterwards. A forked task's file open still costs 5-10 ms (measured: ~270 page
   * faults, HDF5's per-file caches written for the first time in the child), a later one in the same
   * process ~0.2 ms. */
  corpus_quiet();
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  struct corpus_writer *w = NULL;
  struct corpus_meta m = {.name = "warm_up", .n = 1};
  struct cp_problem *p = cp_lcp_create(1);
  int rc = fapl < 0 || !p || H5Pset_fapl_core(fapl, 1 << 16, 0) < 0 ||
           writer_open("corpus_warm_up.h5", fapl, &w, NULL, 0) || corpus_writer_add(w, p, &m, 0, NULL, 0);
  rc |= corpus_writer_close(&w);
  cp_destroy(&p);
  if (fapl >= 0) H5Pclose(fapl);
  return rc;
}

int corpus_append(const char *path, const struct cp_problem *p, const struct corpus_meta *m, long cap,
                  char *err, size_t len)
{
  struct corpus_writer *w = NULL;
  if (corpus_writer_open(path, &w, err, len)) return 1;
  int rc = corpus_writer_add(w, p, m, cap, err, len);
  if (corpus_writer_close(&w) && rc != 1) rc = corpus_fail(err, len, "%s: close failed", path);
  return rc;
}
