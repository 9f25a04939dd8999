/* corpus_table.c — the problem table of a corpus read and checked (corpus_impl.h). Nothing read from the file
 * is trusted: a dataset's size is checked against the file's size and the chunks it has stored before a
 * buffer is sized by it, and each row's fields, sizes and offsets against the schema (corpus.h) and the
 * datasets before its data is read. A bad row makes its problem corrupt (c->why, with the reason); a table
 * that claims more than the file holds makes the file unreadable. */
#include "corpus_impl.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest sizes the schema allows: a linear problem is read into a dense n x n matrix. */
#define CORPUS_N_LINEAR_MAX 100000
#define CORPUS_N_MAX        1000000
#define TABLE_BLOCK         256 /* rows read at a time */

static const char *const kinds[] = {"lcp", "mlcp", "box_mcp", "ncp", "boxed", "fc"};
enum { KIND_LCP, KIND_MLCP, KIND_BOX, KIND_NCP, KIND_BOXED, KIND_FC, N_KINDS };

static int kind_of(const char *k)
{
  for (int i = 0; i < N_KINDS; i++)
    if (strcmp(k, kinds[i]) == 0) return i;
  return -1;
}

static int say(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int say(char *why, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, CORPUS_WHY, fmt, ap);
  va_end(ap);
  return 1;
}

/* The fields every schema version has: name, kind, captured, n, n_eq (and h where it is used); fc_dim. */
static int meta_check(const struct corpus_meta *m, int version, char *why)
{
  char bad[CORPUS_WHY - 32];
  if (corpus_name_bad(m->name, bad, sizeof bad)) return say(why, "its name has %s", bad);
  const int k = kind_of(m->kind), cap = m->captured;
  if (k < 0 || (k == KIND_FC && version < 4)) return say(why, "unknown kind '%.20s'", m->kind);
  if (cap < 0 || cap > 2 || (cap == 2 && version < 3)) return say(why, "captured %d (0, 1 or 2)", cap);
  if (cap == 1 && k == KIND_NCP) return say(why, "captured 1 (linear data) for a kind ncp problem");
  if (cap == 2 && k != KIND_NCP) return say(why, "captured 2 (a callback problem) of kind %s", m->kind);
  const int n_max = cap == 1 ? CORPUS_N_LINEAR_MAX : CORPUS_N_MAX;
  if (m->n < (cap ? 1 : 0) || m->n > n_max) return say(why, "n = %d (%d to %d)", m->n, cap ? 1 : 0, n_max);
  if (m->n_eq < 0 || m->n_eq > m->n || (k == KIND_MLCP && m->n_eq == m->n && cap) ||
      ((k == KIND_LCP || k == KIND_BOX || k == KIND_BOXED || k == KIND_FC) && m->n_eq != 0))
    return say(why, "n_eq = %d with n = %d for kind %s", m->n_eq, m->n, m->kind);
  if (k == KIND_FC ? (m->fc_dim != 2 && m->fc_dim != 3) || m->n % m->fc_dim : m->fc_dim != 0)
    return say(why, "fc_dim = %d with n = %d for kind %s", m->fc_dim, m->n, m->kind);
  if (m->fc_relaxed != 0 && (m->fc_relaxed != 1 || k != KIND_FC))
    return say(why, "fc_relaxed = %d for kind %s", m->fc_relaxed, m->kind);
  if (cap == 2 && !(isfinite(m->h) && m->h > 0.0)) return say(why, "time step h = %g", m->h);
  return 0;
}

/* count elements from offset lie within [0, size) of the dataset named set. */
static int in_range(int64_t offset, int64_t count, hsize_t size, const char *set, char *why)
{
  if (count < 0 || offset < 0 || (hsize_t)offset > size || (hsize_t)count > size - (hsize_t)offset)
    return say(why, "its data (%lld elements at %lld of %s) lies outside the %llu stored", (long long)count,
               (long long)offset, set, (unsigned long long)size);
  return 0;
}

/* Where a version 2 / 3 row's data is, against the datasets' sizes. */
static int slot_check(const struct corpus *c, const struct corpus_meta *m, const struct corpus_slot *s,
                      char *why)
{
  const int64_t n = m->n, extra = corpus_linear_extra(n, m->fc_dim) + corpus_findex_count(m);
  if (s->format < 0) return say(why, "unknown M_format");
  if (m->captured == 1) {
    if (s->format != FMT_DENSE && s->format != FMT_CSR) return say(why, "M_format is not dense or csr");
    if (s->format == FMT_DENSE) return in_range(s->values_offset, extra + n * n, c->n_values, "values", why);
    if (s->nnz < 0 || s->nnz > n * n)
      return say(why, "nnz = %lld with n = %lld", (long long)s->nnz, (long long)n);
    return in_range(s->values_offset, extra + s->nnz, c->n_values, "values", why) ||
           in_range(s->indices_offset, n + 1 + s->nnz, c->n_indices, "indices", why);
  }
  if (s->format != FMT_NONE) return say(why, "M_format %s without linear data", corpus_fmt_text[s->format]);
  if (m->captured == 0) return 0;
  if (s->world_len < 1 || s->options_len < 0 || s->carry_n < 0 || (s->warm != 0 && s->warm != 1))
    return say(why, "world_len %d, options_len %d, carry_n %d, warm %d", s->world_len, s->options_len,
               s->carry_n, s->warm);
  return in_range(s->values_offset, 4 * n + s->carry_n, c->n_values, "values", why) ||
         in_range(s->text_offset, (int64_t)s->world_len + s->options_len, c->n_text, "text", why);
}

/* The member of the memory row type t that the file's type ft lacks (or has of another class), or NULL. */
static const char *missing_member(hid_t t, hid_t ft)
{
  static char name[64];
  if (H5Tget_class(ft) != H5T_COMPOUND) return "(not a compound table)";
  for (int i = 0, n = H5Tget_nmembers(t); i < n; i++) {
    char *m = H5Tget_member_name(t, (unsigned)i);
    int j = m ? H5Tget_member_index(ft, m) : -1;
    int same = j >= 0 && H5Tget_member_class(ft, (unsigned)j) == H5Tget_member_class(t, (unsigned)i);
    if (m) snprintf(name, sizeof name, "%s", m);
    H5free_memory(m);
    if (!same) return name;
  }
  return NULL;
}

/* Dataset k's extent and how many of its elements its stored chunks hold (file type of elem bytes and class
 * cls, or any class for cls H5T_NO_CLASS). 0, or 1 with err. */
static int set_sizes(hid_t d, H5T_class_t cls, size_t elem, hsize_t *extent, hsize_t *stored)
{
  hid_t ft = H5Dget_type(d);
  int rc = ft < 0 || corpus_extent(d, extent) ||
           (cls != H5T_NO_CLASS && (H5Tget_class(ft) != cls || H5Tget_size(ft) != elem));
  size_t fe = ft >= 0 ? H5Tget_size(ft) : 0;
  if (ft >= 0) H5Tclose(ft);
  *stored = !rc && fe ? H5Dget_storage_size(d) / fe : 0;
  return rc || !fe;
}

/* The fields of a version 2 / 3 row into meta and slot (every string cut at its field's end). */
static void take_row(struct row *x, struct corpus_meta *m, struct corpus_slot *s)
{
  char *const str[] = {x->name,   x->kind, x->driver,  x->formulation, x->solver,
                       x->status, x->axes, x->git_sha, x->m_format};
  const size_t size[] = {sizeof x->name,        sizeof x->kind,    sizeof x->driver,
                         sizeof x->formulation, sizeof x->solver,  sizeof x->status,
                         sizeof x->axes,        sizeof x->git_sha, sizeof x->m_format};
  for (size_t k = 0; k < sizeof size / sizeof size[0]; k++)
    str[k][size[k] - 1] = '\0';
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
  m->fc_dim = x->fc_dim;
  m->fc_relaxed = x->fc_relaxed;
  m->captured = x->captured;
  *s = (struct corpus_slot){x->values_offset, x->indices_offset, x->nnz,     x->text_offset, -1,
                            x->world_len,     x->options_len,    x->carry_n, x->warm};
  for (int f = 0; f < 3; f++)
    if (strcmp(x->m_format, corpus_fmt_text[f]) == 0) s->format = f;
}

/* ---- checks across rows ---- */

struct region {
  int64_t start, end;
  int i;
};

static int by_start(const void *a, const void *b)
{
  const struct region *x = a, *y = b;
  return (x->start > y->start) - (x->start < y->start);
}

/* The data regions of the problems in one dataset (which: 0 values, 1 indices, 2 text) must not overlap.
 * Problems whose data was found bad are out already (a changed size usually shows in the data: bounds not
 * of the problem's kind); of a pair that still overlaps, both are corrupt (which one's offset or size was
 * changed cannot be told). */
static void check_overlaps(struct corpus *c, int which, struct region *r)
{
  int k = 0;
  for (int i = 0; i < c->n; i++) {
    const struct corpus_meta *m = &c->meta[i];
    const struct corpus_slot *s = &c->at[i];
    const int64_t n = m->n;
    if (c->why[i][0] || !m->captured) continue;
    int64_t start = which == 0 ? s->values_offset : which == 1 ? s->indices_offset : s->text_offset, len = 0;
    if (which == 0)
      len = m->captured == 2 ? 4 * n + s->carry_n
                             : corpus_linear_extra(n, m->fc_dim) + (s->format == FMT_CSR ? s->nnz : n * n) +
                                   corpus_findex_count(m);
    if (which == 1 && s->format == FMT_CSR) len = n + 1 + s->nnz;
    if (which == 2 && m->captured == 2) len = (int64_t)s->world_len + s->options_len;
    if (len > 0) r[k++] = (struct region){start, start + len, i};
  }
  qsort(r, (size_t)k, sizeof *r, by_start);
  static const char *const set[3] = {"values", "indices", "text"};
  for (int j = 1; j < k; j++)
    if (r[j].start < r[j - 1].end) {
      const int a = r[j - 1].i, b = r[j].i;
      if (!c->why[a][0]) say(c->why[a], "its %s overlap those of %.120s", set[which], c->meta[b].name);
      if (!c->why[b][0]) say(c->why[b], "its %s overlap those of %.120s", set[which], c->meta[a].name);
    }
}

static const struct corpus *sorting; /* qsort has no context argument */

static int by_name(const void *a, const void *b)
{
  const int x = *(const int *)a, y = *(const int *)b;
  int d = strcmp(sorting->meta[x].name, sorting->meta[y].name);
  return d ? d : (x > y) - (x < y);
}

/* Names are unique in a corpus: a second problem of a name (its name changed) is corrupt. */
static void check_names(struct corpus *c, int *order)
{
  for (int i = 0; i < c->n; i++)
    order[i] = i;
  sorting = c;
  qsort(order, (size_t)c->n, sizeof *order, by_name);
  for (int j = 1; j < c->n; j++)
    if (strcmp(c->meta[order[j]].name, c->meta[order[j - 1]].name) == 0 && !c->why[order[j]][0])
      say(c->why[order[j]], "a second problem named %.120s", c->meta[order[j]].name);
}

void corpus_table_check_across(struct corpus *c)
{
  struct region *r = malloc(((size_t)c->n + 1) * sizeof *r);
  if (!r) return;
  for (int which = 0; which < 3 && c->version >= 2; which++)
    check_overlaps(c, which, r);
  check_names(c, (int *)(void *)r); /* (a region is larger than an int) */
  free(r);
}

/* ---- the table ---- */

/* The datasets' sizes: the committed ones (or the extents of a file without them), no more than their
 * stored chunks hold. The table's rows must all be stored: more is a damaged file (1 with err). */
static int table_sizes(struct corpus *c, hid_t d, const char *path, char *err, size_t len, hsize_t *rows)
{
  const hid_t set[N_SETS] = {d, c->values, c->indices, c->text, -1};
  const H5T_class_t cls[N_SETS] = {H5T_NO_CLASS, H5T_FLOAT, H5T_INTEGER, H5T_INTEGER, H5T_NO_CLASS};
  const size_t elem[N_SETS] = {0, 8, 4, 1, 0};
  hsize_t extent[N_SETS] = {0}, stored[N_SETS] = {0}, committed[N_SETS];
  for (int k = 0; k < SET_HASHES; k++)
    if (set[k] >= 0 && set_sizes(set[k], cls[k], elem[k], &extent[k], &stored[k]))
      return corpus_fail(err, len, "%s: not a corpus (dataset %s: its type or shape; corrupt?)", path,
                         corpus_set_name[k]);
  int got = corpus_get_committed(c->file, committed);
  if (got < 0) return corpus_fail(err, len, "%s: unreadable committed sizes (corrupt?)", path);
  if (got == 1) memcpy(committed, extent, sizeof committed);
  for (int k = 0; k < SET_HASHES; k++)
    if (committed[k] > extent[k])
      return corpus_fail(err, len, "%s: %llu committed elements of %s, %llu in it (corrupt?)", path,
                         (unsigned long long)committed[k], corpus_set_name[k], (unsigned long long)extent[k]);
  hid_t ft = H5Dget_type(d);
  const size_t row_bytes = ft >= 0 ? H5Tget_size(ft) : 0;
  if (ft >= 0) H5Tclose(ft);
  if (!row_bytes || committed[SET_PROBLEMS] > stored[SET_PROBLEMS] || committed[SET_PROBLEMS] > INT_MAX ||
      (double)committed[SET_PROBLEMS] * (double)row_bytes > (double)c->file_size)
    return corpus_fail(err, len, "%s: the problem table claims %llu rows; the file stores %llu (corrupt?)",
                       path, (unsigned long long)committed[SET_PROBLEMS],
                       (unsigned long long)stored[SET_PROBLEMS]);
  *rows = committed[SET_PROBLEMS];
  c->uncommitted = (long)(extent[SET_PROBLEMS] - committed[SET_PROBLEMS]);
  c->n_values = committed[SET_VALUES] < stored[SET_VALUES] ? committed[SET_VALUES] : stored[SET_VALUES];
  c->n_indices = committed[SET_INDICES] < stored[SET_INDICES] ? committed[SET_INDICES] : stored[SET_INDICES];
  c->n_text = committed[SET_TEXT] < stored[SET_TEXT] ? committed[SET_TEXT] : stored[SET_TEXT];
  return 0;
}

/* The rows in blocks of TABLE_BLOCK through the memory row type t, each taken and checked. */
static int table_rows(struct corpus *c, hid_t d, hid_t t, hsize_t rows)
{
  struct row *x = malloc(TABLE_BLOCK * sizeof *x);
  int rc = !x;
  for (hsize_t i0 = 0; i0 < rows && !rc; i0 += TABLE_BLOCK) {
    const hsize_t k = rows - i0 < TABLE_BLOCK ? rows - i0 : TABLE_BLOCK;
    memset(x, 0, k * sizeof *x);
    rc = corpus_read_slice(d, t, rows, (int64_t)i0, (int64_t)k, x);
    for (hsize_t j = 0; j < k && !rc; j++) {
      const hsize_t i = i0 + j;
      take_row(&x[j], &c->meta[i], &c->at[i]);
      if (!meta_check(&c->meta[i], c->version, c->why[i])) slot_check(c, &c->meta[i], &c->at[i], c->why[i]);
    }
  }
  free(x);
  return rc;
}

int corpus_table_read(struct corpus *c, const char *path, char *err, size_t len)
{
  hid_t d = H5Dopen2(c->file, "problems", H5P_DEFAULT);
  c->values = H5Dopen2(c->file, "values", H5P_DEFAULT);
  c->indices = H5Dopen2(c->file, "indices", H5P_DEFAULT);
  if (c->version >= 3) c->text = H5Dopen2(c->file, "text", H5P_DEFAULT);
  hid_t t = corpus_row_type_of(c->version), ft = d >= 0 ? H5Dget_type(d) : -1;
  hsize_t rows = 0;
  const char *lacks = ft >= 0 ? missing_member(t, ft) : "(none)";
  int rc = 0;
  if (d < 0 || c->values < 0 || c->indices < 0 || (c->version >= 3 && c->text < 0))
    rc = corpus_fail(err, len, "%s: not a corpus (datasets problems, values, indices, text; corrupt?)", path);
  else if (lacks)
    rc = corpus_fail(err, len, "%s: not a corpus (the problem table lacks the field %s; corrupt?)", path,
                     lacks);
  else
    rc = table_sizes(c, d, path, err, len, &rows);
  if (!rc) {
    c->meta = calloc(rows + 1, sizeof *c->meta);
    c->at = calloc(rows + 1, sizeof *c->at);
    c->why = calloc(rows + 1, sizeof *c->why);
    c->n = (int)rows;
    if (!c->meta || !c->at || !c->why)
      rc = corpus_fail(err, len, "out of memory");
    else if (table_rows(c, d, t, rows))
      rc = corpus_fail(err, len, "%s: cannot read the problem table (corrupt?)", path);
  }
  if (ft >= 0) H5Tclose(ft);
  H5Tclose(t);
  if (d >= 0) H5Dclose(d);
  return rc;
}

void corpus_table_check_v1(struct corpus *c)
{
  for (int i = 0; i < c->n; i++)
    meta_check(&c->meta[i], 1, c->why[i]);
}
