/* corpus_write.c — the corpus writer (corpus.h, layout in corpus_layout.h): problems are buffered and
 * appended in batches to the datasets, values, indices, text and name hashes first, the table rows last,
 * then one H5Fflush, then the committed sizes (root attribute "committed") and a second flush; HDF5 is not
 * called between batches, so a killed run leaves a file whose every batch but the last is readable, and a
 * batch whose write failed is not committed (readers do not see its rows). Before a batch the room it
 * takes on disk is reserved (corpus_disk.h), so that a full disk or quota stops the writer before HDF5
 * writes half a batch (which leaves a file HDF5 cannot open). A problem costs a copy
 * of its data into the batch (one pass over M), not the creation of ~25 HDF5 objects and a flush (schema
 * version 1: 0.6-0.9 ms a problem). One writer per file: corpus_lock.h. */
#include "corpus_disk.h"
#include "corpus_layout.h"
#include "corpus_lock.h"
#include "corpus_names.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Each dataset's element size and chunk (elements): no filter (deflate's set-up per chunk cost ~2 ms a
 * batch) and the file's row type is the memory one (not packed: a few bytes of padding), so a write
 * converts nothing. */
static const size_t set_elem[N_SETS] = {sizeof(struct row), sizeof(double), sizeof(int32_t), 1,
                                        sizeof(uint64_t)};
static const hsize_t set_chunk[N_SETS] = {64, 32768, 16384, 65536, 4096};
/* What a batch's metadata can add (chunk index nodes, object headers), beyond its new chunks. */
#define CORPUS_BATCH_METADATA_BYTES (64L * 1024)

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- writing ---- */

struct corpus_writer {
  hid_t file, set[N_SETS], row_t;
  char path[1024];
  hsize_t size[N_SETS]; /* committed in the file */
  struct row *rows;     /* the batch not yet written */
  uint64_t *hash;       /* its names' hashes */
  double *val;
  int32_t *idx;
  unsigned char *txt; /* callback problems' world and options text */
  size_t n_rows, n_val, n_idx, n_txt, cap_rows, cap_val, cap_idx, cap_hash, cap_txt;
  struct corpus_names names;
  double last_flush;
  int lock_fd;      /* the file's lock (corpus_lock.h); -1 for an in-memory file */
  off_t reserved;   /* the end of the room reserved on disk (corpus_disk.h) */
  char failed[512]; /* why a batch could not be written: nothing more is accepted */
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

/* The name of row r of the file's table into nm: 0, or 1 when it cannot be read. */
static int file_name_at(const struct corpus_writer *w, hsize_t r, char *nm, size_t len)
{
  hsize_t one = 1;
  hid_t nt = corpus_name_type(), fs = H5Dget_space(w->set[SET_PROBLEMS]),
        ms = H5Screate_simple(1, &one, NULL);
  int bad = H5Sselect_hyperslab(fs, H5S_SELECT_SET, &r, NULL, &one, NULL) < 0 ||
            H5Dread(w->set[SET_PROBLEMS], nt, ms, fs, H5P_DEFAULT, nm) < 0;
  H5Sclose(ms);
  H5Sclose(fs);
  H5Tclose(nt);
  nm[len - 1] = '\0';
  return bad;
}

/* 1 when a problem named name is in the file or the batch (a hash match is confirmed on the name). */
static int writer_has(const struct corpus_writer *w, const char *name)
{
  const uint64_t h = corpus_name_hash(name);
  const long in_file = (long)w->size[SET_PROBLEMS];
  long j = -1, r;
  while ((r = corpus_names_next(&w->names, h, &j)) >= 0) {
    if (r >= in_file) { /* in the batch (an index past it: a batch that failed to write) */
      if (r - in_file < (long)w->n_rows && strcmp(w->rows[r - in_file].name, name) == 0) return 1;
      continue;
    }
    char nm[sizeof(((struct row *)0)->name)] = "";
    if (file_name_at(w, (hsize_t)r, nm, sizeof nm) || strcmp(nm, name) == 0)
      return 1; /* unreadable: refused rather than risk a duplicate */
  }
  return 0;
}

/* Room on disk for the batch: the chunks it adds to each dataset (a chunk is allocated whole) and some
 * metadata, reserved before HDF5 writes (corpus_disk.h). 0, or 1 with w->failed saying why. */
static int room_for_batch(struct corpus_writer *w)
{
  if (w->lock_fd < 0) return 0; /* an in-memory file */
  const size_t count[N_SETS] = {w->n_rows, w->n_val, w->n_idx, w->n_txt, w->n_rows};
  double need = (double)CORPUS_BATCH_METADATA_BYTES;
  for (int k = 0; k < N_SETS; k++) {
    const hsize_t c = set_chunk[k], chunks = (w->size[k] + count[k] + c - 1) / c - (w->size[k] + c - 1) / c;
    need += (double)(chunks * c) * (double)set_elem[k];
  }
  char why[400];
  if (!corpus_disk_reserve(w->file, w->path, need, &w->reserved, why, sizeof why)) return 0;
  snprintf(w->failed, sizeof w->failed, "%s (a batch of %zu problems)", why, w->n_rows);
  return 1;
}

/* Writes the batch: values, indices, text and hashes first, the table rows last, then flushes; only then
 * are the new sizes committed (and flushed), so a reader never takes a row whose data did not reach the
 * disk. 0, or 1 with w->failed saying why (nothing is written after that, and the file is detached). */
static int write_batch(struct corpus_writer *w)
{
  if (w->failed[0]) return 1;
  if (w->n_rows == 0) return 0;
  if (room_for_batch(w)) return 1;
  const void *buf[N_SETS] = {w->rows, w->val, w->idx, w->txt, w->hash};
  const size_t count[N_SETS] = {w->n_rows, w->n_val, w->n_idx, w->n_txt, w->n_rows};
  const hid_t type[N_SETS] = {w->row_t, H5T_NATIVE_DOUBLE, H5T_NATIVE_INT32, H5T_NATIVE_UCHAR,
                              H5T_NATIVE_UINT64};
  hsize_t size[N_SETS];
  memcpy(size, w->size, sizeof size);
  errno = 0;
  int rc = 0;
  for (int k = N_SETS - 1; k >= 0 && !rc; k--) /* hashes, text, indices, values, then the rows */
    rc = corpus_append_slice(w->set[k], type[k], &size[k], count[k], buf[k]);
  rc = rc || H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0 || corpus_put_committed(w->file, size) ||
       H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0;
  if (rc) {
    int e = errno;
    snprintf(w->failed, sizeof w->failed, "writing a batch of %zu problems failed (%s)", w->n_rows,
             e ? strerror(e) : "an HDF5 error");
    /* closing would flush the half-written batch's metadata over the last flush's: the file keeps that */
    if (w->lock_fd >= 0) corpus_disk_detach(w->file, w->path);
  } else {
    memcpy(w->size, size, sizeof size);
  }
  w->n_rows = w->n_val = w->n_idx = w->n_txt = 0;
  w->last_flush = now();
  return rc;
}

static void writer_free(struct corpus_writer *w)
{
  for (int k = 0; k < N_SETS; k++)
    if (w->set[k] >= 0) H5Dclose(w->set[k]);
  if (w->row_t >= 0) H5Tclose(w->row_t);
  free(w->txt);
  free(w->rows);
  free(w->hash);
  free(w->val);
  free(w->idx);
  corpus_names_free(&w->names);
  free(w);
}

/* Opens an existing version 3 file (read through once by the checked reader first, so that a damaged file
 * is refused before libhdf5 writes to it): its datasets cut back to the committed sizes (a failed or killed
 * batch's leftovers go) and the names already there. */
static int open_existing(struct corpus_writer *w, char *err, size_t len)
{
  struct corpus *c = NULL;
  if (corpus_open(w->path, &c, err, len)) return 1;
  corpus_close(&c);
  w->file = H5Fopen(w->path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (w->file < 0) return corpus_fail(err, len, "%s: not a readable HDF5 corpus", w->path);
  long v = corpus_get_version(w->file);
  if (v != CORPUS_SCHEMA_VERSION)
    return corpus_fail(
        err, len,
        "%s: schema version %ld, this build writes %d (bench_corpus -merge NEW.h5 %s converts a "
        "file of an older version)",
        w->path, v, CORPUS_SCHEMA_VERSION, w->path);
  for (int k = 0; k < N_SETS; k++) {
    w->set[k] = H5Dopen2(w->file, corpus_set_name[k], H5P_DEFAULT);
    if (w->set[k] < 0 || corpus_extent(w->set[k], &w->size[k]))
      return corpus_fail(err, len, "%s: not a corpus (dataset %s)", w->path, corpus_set_name[k]);
  }
  hsize_t committed[N_SETS];
  int got = corpus_get_committed(w->file, committed);
  if (got < 0) return corpus_fail(err, len, "%s: unreadable committed sizes", w->path);
  /* (a file of an older build: its extents, but a writer killed inside a batch may have left more hashes
   * than rows: the rows count) */
  if (got == 1) memcpy(committed, w->size, sizeof committed), committed[SET_HASHES] = w->size[SET_PROBLEMS];
  for (int k = 0; k < N_SETS; k++) {
    if (committed[k] > w->size[k]) return corpus_fail(err, len, "%s: committed sizes past the data", w->path);
    if (committed[k] < w->size[k] && H5Dset_extent(w->set[k], &committed[k]) < 0)
      return corpus_fail(err, len, "%s: cannot cut %s back to its committed size", w->path,
                         corpus_set_name[k]);
    w->size[k] = committed[k];
  }
  const hsize_t n = w->size[SET_PROBLEMS];
  uint64_t *h = malloc((n + 1) * sizeof *h);
  int rc = !h || corpus_names_grow(&w->names, n + CORPUS_BATCH_PROBLEMS) ||
           corpus_read_slice(w->set[SET_HASHES], H5T_NATIVE_UINT64, n, 0, (int64_t)n, h);
  for (hsize_t i = 0; i < n && !rc; i++)
    rc = corpus_names_insert(&w->names, h[i], (long)i);
  free(h);
  return rc ? corpus_fail(err, len, "%s: cannot read the problem names' hashes", w->path) : 0;
}

static int create_new(struct corpus_writer *w, hid_t fapl, char *err, size_t len)
{
  w->file = H5Fcreate(w->path, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
  if (w->file < 0) return corpus_fail(err, len, "%s: cannot create", w->path);
  const hid_t type[N_SETS] = {w->row_t, H5T_IEEE_F64LE, H5T_STD_I32LE, H5T_STD_U8LE, H5T_STD_U64LE};
  int rc = 0;
  for (int k = 0; k < N_SETS; k++)
    rc |= (w->set[k] = corpus_make_dataset(w->file, corpus_set_name[k], type[k], set_chunk[k])) < 0;
  /* flushed empty: a run killed before its first batch leaves a readable corpus of 0 problems */
  if (rc || corpus_put_version(w->file) || corpus_put_committed(w->file, w->size) ||
      H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
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
  w->file = w->row_t = -1;
  for (int k = 0; k < N_SETS; k++)
    w->set[k] = -1;
  w->lock_fd = -1;
  w->row_t = corpus_row_type();
  snprintf(w->path, sizeof w->path, "%s", path);
  int rc = 0;
  if (fapl == H5P_DEFAULT) rc = corpus_lock_take(path, &w->lock_fd, err, len);
  if (!rc)
    rc = fapl == H5P_DEFAULT && access(path, F_OK) == 0 ? open_existing(w, err, len)
                                                        : create_new(w, fapl, err, len);
  if (rc) {
    hid_t f = w->file;
    corpus_lock_release(path, &w->lock_fd);
    writer_free(w);
    if (f >= 0) H5Fclose(f);
    return 1;
  }
  w->last_flush = now();
  *out = w;
  return 0;
}

/* Appends q, lo, hi and the matrix of p to the batch: CSR when under a quarter of M is nonzero, else dense;
 * then kind fc's friction coefficients. One branch-free pass builds the CSR form in the batch buffers (room
 * for a full matrix is reserved), and a dense matrix then overwrites it: the cost is one read of M, not a
 * count and a second pass. */
static int add_matrix(struct corpus_writer *w, const struct cp_problem *p, struct row *r)
{
  const int n = p->n;
  const size_t nn = (size_t)n * (size_t)n, nmu = (size_t)(corpus_linear_extra(n, p->fc_dim) - 3 * n),
               nf = p->kind == CP_BOXED ? (size_t)n : 0;
  if (reserve((void **)&w->val, &w->cap_val, w->n_val, 3 * (size_t)n + nn + nmu + nf, sizeof *w->val) ||
      reserve((void **)&w->idx, &w->cap_idx, w->n_idx, (size_t)n + 1 + nn, sizeof *w->idx))
    return 1;
  r->values_offset = (int64_t)(w->size[SET_VALUES] + w->n_val);
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
  const int dense = 4 * k >= nn;
  if (dense) {
    memcpy(val, p->M, nn * sizeof *val);
    snprintf(r->m_format, sizeof r->m_format, "%s", corpus_fmt_text[FMT_DENSE]);
    w->n_val += nn;
  } else {
    snprintf(r->m_format, sizeof r->m_format, "%s", corpus_fmt_text[FMT_CSR]);
    r->indices_offset = (int64_t)(w->size[SET_INDICES] + w->n_idx);
    r->nnz = (int64_t)k;
    w->n_idx += (size_t)n + 1 + k;
    w->n_val += k;
  }
  if (nmu) memcpy(w->val + w->n_val, p->mu, nmu * sizeof *w->val);
  w->n_val += nmu;
  for (size_t i = 0; i < nf; i++) /* a boxed problem's friction indices, exact as doubles */
    w->val[w->n_val + i] = (double)p->findex[i];
  w->n_val += nf;
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
  r->values_offset = (int64_t)(w->size[SET_VALUES] + w->n_val);
  double *v = w->val + w->n_val;
  memcpy(v, cb->lo, (size_t)n * sizeof *v);
  memcpy(v + n, cb->hi, (size_t)n * sizeof *v);
  memcpy(v + 2 * n, cb->z0, (size_t)n * sizeof *v);
  memcpy(v + 3 * n, cb->Fz0, (size_t)n * sizeof *v);
  if (cb->carry_n) memcpy(v + 4 * n, cb->carry, (size_t)cb->carry_n * sizeof *v);
  w->n_val += nv;
  r->text_offset = (int64_t)(w->size[SET_TEXT] + w->n_txt);
  memcpy(w->txt + w->n_txt, cb->world, cb->world_len);
  memcpy(w->txt + w->n_txt + cb->world_len, cb->options, cb->options_len);
  w->n_txt += nt;
  r->world_len = (int32_t)cb->world_len;
  r->options_len = (int32_t)cb->options_len;
  r->carry_n = cb->carry_n;
  r->warm = cb->warm;
  return 0;
}

/* The writer's failure as the caller's message (1): the file, why, and what a reader will find in it. */
static int failure(const struct corpus_writer *w, char *err, size_t len)
{
  return corpus_fail(err, len, "%s: %s; it holds the %llu problems committed before", w->path, w->failed,
                     (unsigned long long)w->size[SET_PROBLEMS]);
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
  char why[200];
  if (cb && (cb->world_len > INT32_MAX || cb->options_len > INT32_MAX || cb->carry_n < 0))
    return corpus_fail(err, len, "%s: the callback problem's text is too long", m->name);
  if (corpus_name_bad(m->name, why, sizeof why))
    return corpus_fail(err, len, "%s: a problem name cannot hold %s", w->path, why);
  if (w->failed[0]) return failure(w, err, len);
  if (cap > 0 && (long)(w->size[SET_PROBLEMS] + w->n_rows) >= cap) return 3;
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
  r->fc_dim = p ? p->fc_dim : m->fc_dim;
  r->fc_relaxed = p ? p->fc_relaxed : m->fc_relaxed;
  r->captured = p && cp_is_linear(p) ? 1 : cb ? 2 : 0;
  r->values_offset = r->indices_offset = r->text_offset = -1;
  w->hash[w->n_rows] = corpus_name_hash(r->name);
  if ((r->captured == 1 && add_matrix(w, p, r)) || (r->captured == 2 && add_callback(w, cb, r->n, r)) ||
      corpus_names_insert(&w->names, w->hash[w->n_rows], (long)(w->size[SET_PROBLEMS] + w->n_rows)))
    return corpus_fail(err, len, "out of memory");
  w->n_rows++;
  size_t bytes =
      w->n_rows * sizeof *w->rows + w->n_val * sizeof *w->val + w->n_idx * sizeof *w->idx + w->n_txt;
  if (w->n_rows >= CORPUS_BATCH_PROBLEMS || bytes >= (size_t)CORPUS_BATCH_BYTES ||
      now() - w->last_flush >= CORPUS_BATCH_SECONDS) {
    if (write_batch(w)) return failure(w, err, len);
  }
  return 0;
}

int corpus_writer_has(const struct corpus_writer *w, const char *name) { return writer_has(w, name); }
int corpus_writer_failed(const struct corpus_writer *w) { return w->failed[0] != 0; }

int corpus_writer_close(struct corpus_writer **w, char *err, size_t len)
{
  if (!w || !*w) return 0;
  struct corpus_writer *x = *w;
  int rc = write_batch(x);
  if (rc) failure(x, err, len);
  hid_t f = x->file;
  x->file = -1;
  for (int k = 0; k < N_SETS; k++)
    if (x->set[k] >= 0) H5Dclose(x->set[k]), x->set[k] = -1;
  if (H5Fclose(f) < 0 && !rc) rc = corpus_fail(err, len, "%s: closing it failed", x->path);
  corpus_disk_release(x->path, x->reserved);
  corpus_lock_release(x->path, &x->lock_fd); /* after the close: no other writer while it is open */
  writer_free(x);
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
  rc |= corpus_writer_close(&w, NULL, 0);
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
  if (rc == 1) {
    corpus_writer_close(&w, NULL, 0);
    return 1;
  }
  if (corpus_writer_close(&w, err, len)) rc = 1;
  return rc;
}
