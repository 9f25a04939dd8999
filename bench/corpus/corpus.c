/* corpus.c — the HDF5 problem corpus (corpus.h), schema version 2: a writer that buffers problems and
 * appends them in batches to three chunked, extendible datasets (a problem is a table row and two slices,
 * so its cost is a few copies, not the creation of ~25 HDF5 objects and a flush: measured 600-900 us per
 * problem with version 1), the reader (version 2 here, version 1 in corpus_v1.c), merge (through the reader
 * and a writer, so it also converts version 1 files) and the Siconos numerics .dat writer for linear
 * problems. HDF5's own error stack printing is switched off: every failure becomes one message naming the
 * file. */
#include "corpus.h"

#include "corpus_v1.h"

#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
  if (err && len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
  }
  return 1;
}

static void quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { FMT_NONE, FMT_DENSE, FMT_CSR };
static const char *const fmt_text[3] = {"none", "dense", "csr"};

/* One row of /problems (the in-memory layout; the file's is the packed copy of the same fields). */
struct row {
  char name[128], kind[16], driver[64], formulation[64], solver[64], status[64], axes[512], git_sha[64];
  char m_format[8];
  double h, t;
  int64_t step, task_id;
  uint64_t seed;
  int32_t rows[6];
  int32_t n, n_eq, captured;
  int64_t values_offset, indices_offset, nnz;
};

static hid_t str_type(size_t size)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, size);
  return t;
}

/* The compound type of struct row (memory layout). */
static hid_t row_type(void)
{
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct row));
  static const struct {
    const char *name;
    size_t off, size;
  } str[] = {
      {"name", offsetof(struct row, name), sizeof(((struct row *)0)->name)},
      {"kind", offsetof(struct row, kind), sizeof(((struct row *)0)->kind)},
      {"driver", offsetof(struct row, driver), sizeof(((struct row *)0)->driver)},
      {"formulation", offsetof(struct row, formulation), sizeof(((struct row *)0)->formulation)},
      {"solver", offsetof(struct row, solver), sizeof(((struct row *)0)->solver)},
      {"status", offsetof(struct row, status), sizeof(((struct row *)0)->status)},
      {"axes", offsetof(struct row, axes), sizeof(((struct row *)0)->axes)},
      {"git_sha", offsetof(struct row, git_sha), sizeof(((struct row *)0)->git_sha)},
      {"M_format", offsetof(struct row, m_format), sizeof(((struct row *)0)->m_format)},
  };
  for (size_t k = 0; k < sizeof str / sizeof str[0]; k++) {
    hid_t s = str_type(str[k].size);
    H5Tinsert(t, str[k].name, str[k].off, s);
    H5Tclose(s);
  }
  H5Tinsert(t, "h", HOFFSET(struct row, h), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "t", HOFFSET(struct row, t), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "step", HOFFSET(struct row, step), H5T_NATIVE_INT64);
  H5Tinsert(t, "task_id", HOFFSET(struct row, task_id), H5T_NATIVE_INT64);
  H5Tinsert(t, "seed", HOFFSET(struct row, seed), H5T_NATIVE_UINT64);
  hsize_t six = 6;
  hid_t a = H5Tarray_create2(H5T_NATIVE_INT32, 1, &six);
  H5Tinsert(t, "rows", HOFFSET(struct row, rows), a);
  H5Tclose(a);
  H5Tinsert(t, "n", HOFFSET(struct row, n), H5T_NATIVE_INT32);
  H5Tinsert(t, "n_eq", HOFFSET(struct row, n_eq), H5T_NATIVE_INT32);
  H5Tinsert(t, "captured", HOFFSET(struct row, captured), H5T_NATIVE_INT32);
  H5Tinsert(t, "values_offset", HOFFSET(struct row, values_offset), H5T_NATIVE_INT64);
  H5Tinsert(t, "indices_offset", HOFFSET(struct row, indices_offset), H5T_NATIVE_INT64);
  H5Tinsert(t, "nnz", HOFFSET(struct row, nnz), H5T_NATIVE_INT64);
  return t;
}

/* The type of the names column alone (HDF5 reads one field of a compound by name). */
static hid_t name_type(void)
{
  hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(((struct row *)0)->name)),
        s = str_type(sizeof(((struct row *)0)->name));
  H5Tinsert(t, "name", 0, s);
  H5Tclose(s);
  return t;
}

/* ---- 1-D extendible datasets ---- */

static hid_t make_dataset(hid_t f, const char *name, hid_t type, hsize_t chunk)
{
  hsize_t zero = 0, unlimited = H5S_UNLIMITED;
  hid_t sp = H5Screate_simple(1, &zero, &unlimited), pl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(pl, 1, &chunk);
  hid_t d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
  H5Pclose(pl);
  H5Sclose(sp);
  return d;
}

static int extent(hid_t d, hsize_t *size)
{
  hid_t sp = H5Dget_space(d);
  int rc = sp < 0 || H5Sget_simple_extent_ndims(sp) != 1 || H5Sget_simple_extent_dims(sp, size, NULL) < 0;
  if (sp >= 0) H5Sclose(sp);
  return rc;
}

/* Appends count elements of buf at the end (*size, updated) of d. */
static int append(hid_t d, hid_t type, hsize_t *size, hsize_t count, const void *buf)
{
  if (count == 0) return 0;
  hsize_t grown = *size + count;
  if (H5Dset_extent(d, &grown) < 0) return 1;
  hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &count, NULL);
  int rc = fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, size, NULL, &count, NULL) < 0 ||
           H5Dwrite(d, type, ms, fs, H5P_DEFAULT, buf) < 0;
  H5Sclose(ms);
  if (fs >= 0) H5Sclose(fs);
  if (!rc) *size = grown;
  return rc;
}

/* Reads count elements from offset of d (whose extent is size) into buf. */
static int read_slice(hid_t d, hid_t type, hsize_t size, int64_t offset, int64_t count, void *buf)
{
  if (count == 0) return 0;
  if (offset < 0 || count < 0 || (hsize_t)offset > size || (hsize_t)count > size - (hsize_t)offset) return 1;
  hsize_t off = (hsize_t)offset, cnt = (hsize_t)count;
  hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &cnt, NULL);
  int rc = fs < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
           H5Dread(d, type, ms, fs, H5P_DEFAULT, buf) < 0;
  H5Sclose(ms);
  if (fs >= 0) H5Sclose(fs);
  return rc;
}

static int put_version(hid_t f)
{
  long v = CORPUS_SCHEMA_VERSION;
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(f, "schema_version", H5T_NATIVE_LONG, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = a < 0 || H5Awrite(a, H5T_NATIVE_LONG, &v) < 0;
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  return rc;
}

static long get_version(hid_t f)
{
  long v = -1;
  if (H5Aexists(f, "schema_version") <= 0) return -1;
  hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
  if (a < 0 || H5Aread(a, H5T_NATIVE_LONG, &v) < 0) v = -1;
  if (a >= 0) H5Aclose(a);
  return v;
}

static const char *kind_text(enum cp_kind k)
{
  switch (k) {
  case CP_LCP: return "lcp";
  case CP_MLCP: return "mlcp";
  case CP_BOX_MCP: return "box_mcp";
  case CP_NCP: return "ncp";
  }
  return "unknown";
}

/* ---- the names in a file (a duplicate is refused): open addressing on FNV-1a ---- */

struct names {
  char **key;
  size_t cap, n; /* cap a power of two, at most half full */
};

static size_t name_hash(const char *s)
{
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return (size_t)h;
}

static int names_has(const struct names *s, const char *k)
{
  if (!s->cap) return 0;
  for (size_t i = name_hash(k) & (s->cap - 1); s->key[i]; i = (i + 1) & (s->cap - 1))
    if (strcmp(s->key[i], k) == 0) return 1;
  return 0;
}

static int names_add(struct names *s, const char *k)
{
  if (2 * (s->n + 1) > s->cap) {
    struct names g = {calloc(s->cap ? 2 * s->cap : 256, sizeof(char *)), s->cap ? 2 * s->cap : 256, 0};
    if (!g.key) return 1;
    for (size_t i = 0; i < s->cap; i++)
      if (s->key[i]) {
        size_t j = name_hash(s->key[i]) & (g.cap - 1);
        while (g.key[j])
          j = (j + 1) & (g.cap - 1);
        g.key[j] = s->key[i];
        g.n++;
      }
    free(s->key);
    *s = g;
  }
  size_t j = name_hash(k) & (s->cap - 1);
  while (s->key[j])
    j = (j + 1) & (s->cap - 1);
  if (!(s->key[j] = strdup(k))) return 1;
  s->n++;
  return 0;
}

static void names_free(struct names *s)
{
  for (size_t i = 0; i < s->cap; i++)
    free(s->key[i]);
  free(s->key);
  memset(s, 0, sizeof *s);
}

/* ---- writing ---- */

struct corpus_writer {
  hid_t file, problems, values, indices, row_t;
  char path[1024];
  hsize_t n_problems, n_values, n_indices; /* in the file */
  struct row *rows;                        /* the batch not yet written */
  double *val;
  int32_t *idx;
  size_t n_rows, n_val, n_idx, cap_rows, cap_val, cap_idx;
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

/* Writes the batch: values and indices first, the table rows last (a reader sees a problem only once its
 * data is there), then flushes, so the file on disk is whole again. */
static int write_batch(struct corpus_writer *w)
{
  if (w->n_rows == 0) return 0;
  int rc = append(w->values, H5T_NATIVE_DOUBLE, &w->n_values, w->n_val, w->val) ||
           append(w->indices, H5T_NATIVE_INT32, &w->n_indices, w->n_idx, w->idx) ||
           append(w->problems, w->row_t, &w->n_problems, w->n_rows, w->rows) ||
           H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0;
  w->n_rows = w->n_val = w->n_idx = 0;
  w->last_flush = now();
  return rc;
}

static void writer_free(struct corpus_writer *w)
{
  if (w->problems >= 0) H5Dclose(w->problems);
  if (w->values >= 0) H5Dclose(w->values);
  if (w->indices >= 0) H5Dclose(w->indices);
  if (w->row_t >= 0) H5Tclose(w->row_t);
  free(w->rows);
  free(w->val);
  free(w->idx);
  names_free(&w->names);
  free(w);
}

/* Opens an existing version 2 file: its datasets, their sizes and the names already there. */
static int open_existing(struct corpus_writer *w, char *err, size_t len)
{
  w->file = H5Fopen(w->path, H5F_ACC_RDWR, H5P_DEFAULT);
  if (w->file < 0) return fail(err, len, "%s: not a readable HDF5 corpus", w->path);
  long v = get_version(w->file);
  if (v != CORPUS_SCHEMA_VERSION)
    return fail(err, len,
                "%s: schema version %ld, this build writes %d (bench_corpus -merge NEW.h5 %s converts a "
                "version 1 file)",
                w->path, v, CORPUS_SCHEMA_VERSION, w->path);
  w->problems = H5Dopen2(w->file, "problems", H5P_DEFAULT);
  w->values = H5Dopen2(w->file, "values", H5P_DEFAULT);
  w->indices = H5Dopen2(w->file, "indices", H5P_DEFAULT);
  if (w->problems < 0 || w->values < 0 || w->indices < 0 || extent(w->problems, &w->n_problems) ||
      extent(w->values, &w->n_values) || extent(w->indices, &w->n_indices))
    return fail(err, len, "%s: not a corpus (datasets problems, values, indices)", w->path);
  if (w->n_problems == 0) return 0;
  hid_t nt = name_type();
  char(*nm)[sizeof(((struct row *)0)->name)] = calloc(w->n_problems, sizeof *nm);
  int rc = !nm || H5Dread(w->problems, nt, H5S_ALL, H5S_ALL, H5P_DEFAULT, nm) < 0;
  for (hsize_t i = 0; i < w->n_problems && !rc; i++) {
    nm[i][sizeof nm[i] - 1] = '\0';
    rc = names_add(&w->names, nm[i]);
  }
  free(nm);
  H5Tclose(nt);
  return rc ? fail(err, len, "%s: cannot read the problem names", w->path) : 0;
}

static int create_new(struct corpus_writer *w, hid_t fapl, char *err, size_t len)
{
  w->file = H5Fcreate(w->path, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
  if (w->file < 0) return fail(err, len, "%s: cannot create", w->path);
  /* no filter (deflate's set-up per chunk cost ~2 ms a batch) and the file's row type is the memory one
   * (not packed: a few bytes of padding), so a write converts nothing */
  w->problems = make_dataset(w->file, "problems", w->row_t, 64);
  w->values = make_dataset(w->file, "values", H5T_IEEE_F64LE, 32768);
  w->indices = make_dataset(w->file, "indices", H5T_STD_I32LE, 16384);
  /* flushed empty: a run killed before its first batch leaves a readable corpus of 0 problems */
  if (w->problems < 0 || w->values < 0 || w->indices < 0 || put_version(w->file) ||
      H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
    return fail(err, len, "%s: cannot create the datasets", w->path);
  return 0;
}

/* Opens a writer on path; fapl: HDF5's file access (H5P_DEFAULT, or the in-memory driver of corpus_init). */
static int writer_open(const char *path, hid_t fapl, struct corpus_writer **out, char *err, size_t len)
{
  quiet();
  struct corpus_writer *w = calloc(1, sizeof *w);
  *out = NULL;
  if (!w) return fail(err, len, "out of memory");
  w->file = w->problems = w->values = w->indices = -1;
  w->row_t = row_type();
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
    snprintf(r->m_format, sizeof r->m_format, "%s", fmt_text[FMT_DENSE]);
    w->n_val += nn;
    return 0;
  }
  snprintf(r->m_format, sizeof r->m_format, "%s", fmt_text[FMT_CSR]);
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

int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len)
{
  if (cap > 0 && (long)(w->n_problems + w->n_rows) >= cap) return 3;
  if (names_has(&w->names, m->name))
    return fail(err, len, "%s: a problem named %s is already there", w->path, m->name);
  if (reserve((void **)&w->rows, &w->cap_rows, w->n_rows, 1, sizeof *w->rows))
    return fail(err, len, "out of memory");
  struct row *r = memset(&w->rows[w->n_rows], 0, sizeof *w->rows);
  snprintf(r->name, sizeof r->name, "%s", m->name);
  snprintf(r->kind, sizeof r->kind, "%s", p ? kind_text(p->kind) : m->kind);
  snprintf(r->driver, sizeof r->driver, "%s", m->driver);
  snprintf(r->formulation, sizeof r->formulation, "%s", m->formulation);
  snprintf(r->solver, sizeof r->solver, "%s", m->solver);
  snprintf(r->status, sizeof r->status, "%s", m->status);
  snprintf(r->axes, sizeof r->axes, "%s", m->axes);
  snprintf(r->git_sha, sizeof r->git_sha, "%s", m->git_sha);
  snprintf(r->m_format, sizeof r->m_format, "%s", fmt_text[FMT_NONE]);
  r->h = m->h;
  r->t = m->t;
  r->step = m->step;
  r->task_id = m->task_id;
  r->seed = m->seed;
  for (int k = 0; k < 6; k++)
    r->rows[k] = m->rows[k];
  r->n = p ? p->n : m->n;
  r->n_eq = p ? p->n_eq : m->n_eq;
  r->captured = p && cp_is_linear(p);
  r->values_offset = r->indices_offset = -1;
  if ((r->captured && add_matrix(w, p, r)) || names_add(&w->names, m->name))
    return fail(err, len, "out of memory");
  w->n_rows++;
  size_t bytes = w->n_rows * sizeof *w->rows + w->n_val * sizeof *w->val + w->n_idx * sizeof *w->idx;
  if (w->n_rows >= CORPUS_BATCH_PROBLEMS || bytes >= (size_t)CORPUS_BATCH_BYTES ||
      now() - w->last_flush >= CORPUS_BATCH_SECONDS) {
    if (write_batch(w)) return fail(err, len, "%s: cannot write the batch ending with %s", w->path, m->name);
  }
  return 0;
}

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
  /* A first writer in a process costs ~10 ms (the library's start, its lazily bound functions, its caches
   * and free lists touched for the first time), a later one ~0.2 ms: one problem written to an in-memory
   * file (HDF5's core driver, nothing on disk) here leaves that done for every task forked afterwards. */
  quiet();
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
  if (corpus_writer_close(&w) && rc != 1) rc = fail(err, len, "%s: close failed", path);
  return rc;
}

/* ---- reading ---- */

struct corpus {
  hid_t file, values, indices;
  int version, n;
  hsize_t n_values, n_indices;
  struct corpus_meta *meta;
  struct slot {
    int64_t values_offset, indices_offset, nnz;
    int format;
  } * at; /* version 2: where each problem's data is */
};

static int open_v2(struct corpus *c, const char *path, char *err, size_t len)
{
  hid_t d = H5Dopen2(c->file, "problems", H5P_DEFAULT);
  c->values = H5Dopen2(c->file, "values", H5P_DEFAULT);
  c->indices = H5Dopen2(c->file, "indices", H5P_DEFAULT);
  hsize_t n = 0;
  if (d < 0 || c->values < 0 || c->indices < 0 || extent(d, &n) || extent(c->values, &c->n_values) ||
      extent(c->indices, &c->n_indices) || n > 100000000) {
    if (d >= 0) H5Dclose(d);
    return fail(err, len, "%s: not a corpus (datasets problems, values, indices; corrupt?)", path);
  }
  hid_t t = row_type();
  struct row *r = calloc(n ? n : 1, sizeof *r);
  c->meta = calloc(n ? n : 1, sizeof *c->meta);
  c->at = calloc(n ? n : 1, sizeof *c->at);
  int rc = !r || !c->meta || !c->at || (n && H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, r) < 0);
  H5Tclose(t);
  H5Dclose(d);
  for (hsize_t i = 0; i < n && !rc; i++) {
    struct corpus_meta *m = &c->meta[i];
    struct row *x = &r[i];
    x->name[sizeof x->name - 1] = x->kind[sizeof x->kind - 1] = x->m_format[sizeof x->m_format - 1] = '\0';
    x->driver[sizeof x->driver - 1] = x->formulation[sizeof x->formulation - 1] = '\0';
    x->solver[sizeof x->solver - 1] = x->status[sizeof x->status - 1] = '\0';
    x->axes[sizeof x->axes - 1] = x->git_sha[sizeof x->git_sha - 1] = '\0';
    memcpy(m->name, x->name, sizeof m->name);
    memcpy(m->kind, x->kind, sizeof m->kind);
    memcpy(m->driver, x->driver, sizeof m->driver);
    memcpy(m->formulation, x->formulation, sizeof m->formulation);
    memcpy(m->solver, x->solver, sizeof m->solver);
    memcpy(m->status, x->status, sizeof m->status);
    memcpy(m->axes, x->axes, sizeof m->axes);
    memcpy(m->git_sha, x->git_sha, sizeof m->git_sha);
    m->h = x->h;
    m->t = x->t;
    m->step = (long)x->step;
    m->task_id = (long)x->task_id;
    m->seed = (unsigned long)x->seed;
    for (int k = 0; k < 6; k++)
      m->rows[k] = x->rows[k];
    m->n = x->n;
    m->n_eq = x->n_eq;
    m->captured = x->captured;
    c->at[i] = (struct slot){x->values_offset, x->indices_offset, x->nnz, FMT_NONE};
    for (int f = 0; f < 3; f++)
      if (strcmp(x->m_format, fmt_text[f]) == 0) c->at[i].format = f;
  }
  free(r);
  if (rc) return fail(err, len, "%s: cannot read the problem table (corrupt?)", path);
  c->n = (int)n;
  return 0;
}

int corpus_open(const char *path, struct corpus **out, char *err, size_t len)
{
  quiet();
  *out = NULL;
  if (access(path, R_OK) != 0) return fail(err, len, "%s: cannot read the file", path), 2;
  if (H5Fis_hdf5(path) <= 0) return fail(err, len, "%s: not an HDF5 file (corrupt or truncated?)", path), 2;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return fail(err, len, "%s: HDF5 cannot open it (corrupt or truncated?)", path), 2;
  long v = get_version(f);
  if (v != 1 && v != CORPUS_SCHEMA_VERSION) {
    H5Fclose(f);
    return fail(err, len, "%s: schema version %ld, this build reads 1 and %d", path, v,
                CORPUS_SCHEMA_VERSION),
           2;
  }
  struct corpus *c = calloc(1, sizeof *c);
  if (!c) return H5Fclose(f), fail(err, len, "out of memory"), 2;
  c->file = f;
  c->values = c->indices = -1;
  c->version = (int)v;
  int rc = v == 1 ? corpus_v1_list(f, path, &c->meta, &c->n, err, len) : open_v2(c, path, err, len);
  if (rc) {
    corpus_close(&c);
    return 2;
  }
  *out = c;
  return 0;
}

int corpus_count(const struct corpus *c) { return c->n; }
int corpus_schema(const struct corpus *c) { return c->version; }
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i) { return &c->meta[i]; }

int corpus_find(const struct corpus *c, const char *name)
{
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->meta[i].name, name) == 0) return i;
  return -1;
}

/* The version 2 data of problem i into p (created with its kind and sizes). */
static int read_v2(const struct corpus *c, int i, struct cp_problem *p)
{
  const struct slot *s = &c->at[i];
  const int n = p->n;
  const int64_t nn = (int64_t)n * n;
  double *qlh = malloc(3 * (size_t)n * sizeof *qlh);
  int rc =
      !qlh || read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, s->values_offset, 3 * (int64_t)n, qlh);
  if (!rc) {
    memcpy(p->q, qlh, (size_t)n * sizeof *qlh);
    memcpy(p->lo, qlh + n, (size_t)n * sizeof *qlh);
    memcpy(p->hi, qlh + 2 * n, (size_t)n * sizeof *qlh);
  }
  free(qlh);
  if (rc) return 1;
  const int64_t at = s->values_offset + 3 * (int64_t)n;
  if (s->format == FMT_DENSE) return read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, nn, p->M);
  if (s->format != FMT_CSR || s->nnz < 0 || s->nnz > nn) return 1;
  int32_t *ptr = malloc(((size_t)n + 1 + (size_t)s->nnz) * sizeof *ptr), *col = ptr ? ptr + n + 1 : NULL;
  double *val = malloc(((size_t)s->nnz + 1) * sizeof *val);
  rc = !ptr || !val ||
       read_slice(c->indices, H5T_NATIVE_INT32, c->n_indices, s->indices_offset, n + 1 + s->nnz, ptr) ||
       read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, s->nnz, val) || ptr[0] != 0 ||
       ptr[n] != s->nnz;
  if (!rc) memset(p->M, 0, (size_t)nn * sizeof *p->M);
  for (int r = 0; r < n && !rc; r++) {
    if (ptr[r + 1] < ptr[r] || ptr[r + 1] > s->nnz) rc = 1;
    for (int32_t k = ptr[r]; k < ptr[r + 1] && !rc; k++) {
      if (col[k] < 0 || col[k] >= n)
        rc = 1;
      else
        p->M[(size_t)r * n + col[k]] = val[k];
    }
  }
  free(ptr);
  free(val);
  return rc;
}

int corpus_read(const struct corpus *c, int i, struct cp_problem **out, char *err, size_t len)
{
  const struct corpus_meta *m = &c->meta[i];
  *out = NULL;
  if (!m->captured) return fail(err, len, "%s: not captured (callback problem)", m->name);
  if (m->n < 1 || m->n > 100000 || m->n_eq < 0 || m->n_eq > m->n)
    return fail(err, len, "%s: bad size n = %d, n_eq = %d", m->name, m->n, m->n_eq);
  struct cp_problem *p = NULL;
  if (strcmp(m->kind, "lcp") == 0)
    p = cp_lcp_create(m->n);
  else if (strcmp(m->kind, "mlcp") == 0)
    p = m->n_eq < m->n ? cp_mlcp_create(m->n_eq, m->n - m->n_eq) : NULL;
  else if (strcmp(m->kind, "box_mcp") == 0)
    p = cp_box_create(m->n);
  int rc = !p || (c->version == 1 ? corpus_v1_read(c->file, m, p) : read_v2(c, i, p));
  if (rc) {
    cp_destroy(&p);
    return fail(err, len, "%s: unreadable %s data (corrupt?)", m->name, m->kind);
  }
  snprintf(p->name, sizeof p->name, "%s", m->name);
  *out = p;
  return 0;
}

void corpus_close(struct corpus **c)
{
  if (!c || !*c) return;
  if ((*c)->values >= 0) H5Dclose((*c)->values);
  if ((*c)->indices >= 0) H5Dclose((*c)->indices);
  if ((*c)->file >= 0) H5Fclose((*c)->file);
  free((*c)->meta);
  free((*c)->at);
  free(*c);
  *c = NULL;
}

/* ---- merge: every input's problems through the reader into one writer ---- */

int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len)
{
  struct corpus_writer *w = NULL;
  if (corpus_writer_open(out, &w, err, len)) return 2;
  int rc = 0;
  for (int k = 0; k < n_in && !rc; k++) {
    struct corpus *c = NULL;
    if (corpus_open(in[k], &c, err, len)) {
      rc = 2;
      break;
    }
    for (int i = 0; i < c->n && !rc; i++) {
      struct corpus_meta m = c->meta[i];
      if (names_has(&w->names, m.name)) snprintf(m.name, sizeof m.name, "%.100s_in%d", c->meta[i].name, k);
      struct cp_problem *p = NULL;
      if (m.captured && corpus_read(c, i, &p, err, len)) rc = 2;
      if (!rc && corpus_writer_add(w, p, &m, 0, err, len)) rc = 2;
      cp_destroy(&p);
    }
    corpus_close(&c);
  }
  if (corpus_writer_close(&w) && !rc) {
    fail(err, len, "%s: close failed", out);
    rc = 2;
  }
  return rc;
}

/* ---- Siconos numerics .dat ---- */

int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len)
{
  if (!cp_is_linear(p)) return fail(err, len, "%s: a callback problem", p->name);
  const int n = p->n, ne = p->n_eq, m = n - ne;
  for (int i = ne; i < n; i++)
    if (p->lo[i] != 0.0 || !isinf(p->hi[i]))
      return fail(err, len, "%s: row %d has bounds [%g, %g], not an LCP row", p->name, i, p->lo[i], p->hi[i]);
  FILE *fp = fopen(path, "w");
  if (!fp) return fail(err, len, "%s: cannot write", path);
  if (p->kind == CP_LCP || ne == 0) {
    /* n, M (dense storage 0: rows cols rows cols, column by column), q */
    fprintf(fp, "%d\n0\n%d %d\n%d %d\n", n, n, n, n, n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        fprintf(fp, "%.17g%c", p->M[(size_t)i * n + j], i + 1 == n ? '\n' : ' ');
    for (int i = 0; i < n; i++)
      fprintf(fp, "%.17g\n", p->q[i]);
  } else {
    /* isStorageType1 0, isStorageType2 1, n, m, A, B, C, D row by row, a, b */
    const int r0[4] = {0, ne, 0, ne}, c0[4] = {0, ne, ne, 0}, nr[4] = {ne, m, ne, m}, nc[4] = {ne, m, m, ne};
    fprintf(fp, "0\n1\n%d\n%d\n", ne, m);
    for (int b = 0; b < 4; b++)
      for (int i = 0; i < nr[b]; i++)
        for (int j = 0; j < nc[b]; j++)
          fprintf(fp, "%.17g%c", p->M[(size_t)(r0[b] + i) * n + c0[b] + j], j + 1 == nc[b] ? '\n' : ' ');
    for (int i = 0; i < n; i++)
      fprintf(fp, "%.17g\n", p->q[i]);
  }
  if (fclose(fp) != 0) return fail(err, len, "%s: write failed", path);
  return 0;
}
