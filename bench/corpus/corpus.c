/* corpus.c — reading the problem corpus (corpus.h): versions 2 to 4 (corpus_layout.h; the table read and
 * checked in corpus_table.c), version 1 through corpus_v1.c. corpus_open first has the whole file read in a
 * child process (corpus_check.c) and takes the checked table from it; only then does this process open the
 * file with libhdf5, to read the data of problems the child has read without harm. */
#include "corpus_impl.h"
#include "corpus_v1.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct corpus *corpus_new(void)
{
  struct corpus *c = calloc(1, sizeof *c);
  if (c) c->file = c->values = c->indices = c->text = -1;
  return c;
}

int corpus_open_here(const char *path, struct corpus **out, char *err, size_t len)
{
  corpus_quiet();
  *out = NULL;
  struct stat st;
  if (access(path, R_OK) != 0 || stat(path, &st) != 0)
    return corpus_fail(err, len, "%s: cannot read the file", path), 2;
  if (H5Fis_hdf5(path) <= 0)
    return corpus_fail(err, len, "%s: not an HDF5 file (corrupt or truncated?)", path), 2;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return corpus_fail(err, len, "%s: HDF5 cannot open it (corrupt or truncated?)", path), 2;
  long v = corpus_get_version(f);
  if (v < 1 || v > CORPUS_SCHEMA_VERSION) {
    H5Fclose(f);
    return corpus_fail(err, len, "%s: schema version %ld, this build reads 1 to %d", path, v,
                       CORPUS_SCHEMA_VERSION),
           2;
  }
  struct corpus *c = corpus_new();
  if (!c) return H5Fclose(f), corpus_fail(err, len, "out of memory"), 2;
  c->file = f;
  c->file_size = st.st_size;
  c->version = (int)v;
  int rc = 0;
  if (v == 1) {
    rc = corpus_v1_list(f, path, &c->meta, &c->n, err, len);
    if (!rc && !(c->why = calloc((size_t)c->n + 1, sizeof *c->why)))
      rc = corpus_fail(err, len, "out of memory");
    if (!rc) corpus_table_check_v1(c);
  } else {
    rc = corpus_table_read(c, path, err, len);
  }
  if (rc) {
    corpus_close(&c);
    return 2;
  }
  *out = c;
  return 0;
}

int corpus_open(const char *path, struct corpus **out, char *err, size_t len)
{
  corpus_quiet();
  *out = NULL;
  struct corpus *c = corpus_new();
  if (!c) return corpus_fail(err, len, "out of memory"), 2;
  if (corpus_check_file(path, c, err, len)) {
    corpus_close(&c);
    return 2;
  }
  c->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (c->file >= 0 && c->version >= 2) {
    c->values = H5Dopen2(c->file, "values", H5P_DEFAULT);
    c->indices = H5Dopen2(c->file, "indices", H5P_DEFAULT);
    if (c->version >= 3) c->text = H5Dopen2(c->file, "text", H5P_DEFAULT);
  }
  if (c->file < 0 || (c->version >= 2 && (c->values < 0 || c->indices < 0)) ||
      (c->version >= 3 && c->text < 0)) {
    corpus_close(&c);
    return corpus_fail(err, len, "%s: HDF5 cannot open it again (changed since it was read?)", path), 2;
  }
  *out = c;
  return 0;
}

int corpus_count(const struct corpus *c) { return c->n; }
int corpus_schema(const struct corpus *c) { return c->version; }
long corpus_uncommitted(const struct corpus *c) { return c->uncommitted; }
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i) { return &c->meta[i]; }
const char *corpus_corrupt(const struct corpus *c, int i) { return c->why[i][0] ? c->why[i] : NULL; }

int corpus_find(const struct corpus *c, const char *name)
{
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->meta[i].name, name) == 0) return i;
  return -1;
}

/* A CSR matrix's row pointers and columns (n + 1 + nnz int32 at the slot's indices_offset) read and checked
 * before the dense matrix they describe is allocated: rows ascending from 0 to nnz, columns in [0, n). */
static int32_t *read_csr_index(const struct corpus *c, const struct corpus_slot *s, int n)
{
  int32_t *ptr = malloc(((size_t)n + 1 + (size_t)s->nnz) * sizeof *ptr);
  int bad = !ptr || corpus_read_slice(c->indices, H5T_NATIVE_INT32, c->n_indices, s->indices_offset,
                                      n + 1 + s->nnz, ptr);
  bad = bad || ptr[0] != 0 || ptr[n] != s->nnz;
  for (int r = 0; r < n && !bad; r++)
    bad = ptr[r + 1] < ptr[r];
  for (int64_t k = 0; k < s->nnz && !bad; k++)
    bad = ptr[n + 1 + k] < 0 || ptr[n + 1 + k] >= n;
  if (bad) free(ptr);
  return bad ? NULL : ptr;
}

int64_t corpus_findex_count(const struct corpus_meta *m) { return strcmp(m->kind, "boxed") == 0 ? m->n : 0; }

/* A boxed problem's friction indices, stored as n doubles after its matrix: each an integer in [-1, n)
 * (whether they form a valid problem is corpus_check_linear's). 0, or 1. */
static int read_findex(const struct corpus *c, int64_t at, struct cp_problem *p)
{
  if (p->kind != CP_BOXED) return 0;
  const int n = p->n;
  double *f = malloc((size_t)n * sizeof *f);
  int rc = !f || corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, n, f);
  for (int i = 0; i < n && !rc; i++) {
    rc = !(f[i] >= -1.0 && f[i] < n && f[i] == floor(f[i]));
    if (!rc) p->findex[i] = (int)f[i];
  }
  free(f);
  return rc;
}

/* The version 2 to 4 data of a linear problem into p (q, lo, hi, then M dense or from CSR with index ix,
 * then kind fc's mu). */
static int read_v2(const struct corpus *c, int i, const int32_t *ix, struct cp_problem *p)
{
  const struct corpus_slot *s = &c->at[i];
  const int n = p->n;
  double *qlh = malloc(3 * (size_t)n * sizeof *qlh);
  int rc = !qlh || corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, s->values_offset,
                                     3 * (int64_t)n, qlh);
  if (!rc) {
    memcpy(p->q, qlh, (size_t)n * sizeof *qlh);
    memcpy(p->lo, qlh + n, (size_t)n * sizeof *qlh);
    memcpy(p->hi, qlh + 2 * n, (size_t)n * sizeof *qlh);
  }
  free(qlh);
  if (rc) return 1;
  const int64_t at = s->values_offset + 3 * (int64_t)n, nmu = corpus_linear_extra(n, p->fc_dim) - 3 * n;
  if (nmu && corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at + (ix ? s->nnz : (int64_t)n * n),
                               nmu, p->mu))
    return 1;
  if (!ix) {
    rc = corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, (int64_t)n * n, p->M);
    return rc || read_findex(c, at + (int64_t)n * n, p);
  }
  double *val = malloc(((size_t)s->nnz + 1) * sizeof *val);
  rc = !val || corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, s->nnz, val);
  if (!rc) memset(p->M, 0, (size_t)n * n * sizeof *p->M);
  for (int r = 0; r < n && !rc; r++)
    for (int32_t k = ix[r]; k < ix[r + 1]; k++)
      p->M[(size_t)r * n + ix[n + 1 + k]] = val[k];
  free(val);
  return rc || read_findex(c, at + s->nnz, p);
}

int corpus_read(const struct corpus *c, int i, struct cp_problem **out, char *err, size_t len)
{
  const struct corpus_meta *m = &c->meta[i];
  *out = NULL;
  if (c->why[i][0]) return corpus_fail(err, len, "%s: corrupt: %s", m->name, c->why[i]);
  if (!m->captured) return corpus_fail(err, len, "%s: not captured (callback problem)", m->name);
  if (m->captured == 2)
    return corpus_fail(err, len, "%s: a callback problem: rebuilt through its formulation, not read",
                       m->name);
  int32_t *ix = NULL;
  const int csr = c->version >= 2 && c->at[i].format == FMT_CSR;
  if (csr && !(ix = read_csr_index(c, &c->at[i], m->n)))
    return corpus_fail(err, len, "%s: unreadable CSR index (corrupt?)", m->name);
  if (c->version == 1 && corpus_v1_sizes(c->file, m, c->file_size)) {
    return corpus_fail(err, len, "%s: its datasets do not hold n = %d (corrupt?)", m->name, m->n);
  }
  struct cp_problem *p = NULL;
  if (strcmp(m->kind, "lcp") == 0)
    p = cp_lcp_create(m->n);
  else if (strcmp(m->kind, "mlcp") == 0)
    p = cp_mlcp_create(m->n_eq, m->n - m->n_eq);
  else if (strcmp(m->kind, "box_mcp") == 0)
    p = cp_box_create(m->n);
  else if (strcmp(m->kind, "boxed") == 0 && c->version >= 2)
    p = cp_boxed_create(m->n);
  else if (strcmp(m->kind, "fc") == 0 && m->fc_dim > 0)
    if ((p = cp_fc_create(m->fc_dim, m->n / m->fc_dim))) p->fc_relaxed = m->fc_relaxed;
  int rc = !p || (c->version == 1 ? corpus_v1_read(c->file, m, p) : read_v2(c, i, ix, p));
  free(ix);
  if (rc) {
    cp_destroy(&p);
    return corpus_fail(err, len, "%s: unreadable %s data (corrupt?)", m->name, m->kind);
  }
  snprintf(p->name, sizeof p->name, "%s", m->name);
  *out = p;
  return 0;
}

void corpus_callback_free(struct corpus_callback *cb)
{
  free(cb->world);
  free(cb->options);
  free(cb->lo);
  free(cb->hi);
  free(cb->z0);
  free(cb->Fz0);
  free(cb->carry);
  memset(cb, 0, sizeof *cb);
}

/* Splits v (lo, hi, z0, F(z0), carried state: the stored order) into cb's own arrays. 0, or 1. */
static int split_callback(struct corpus_callback *cb, double *v, int n, int carry_n)
{
  cb->lo = v;
  cb->hi = malloc((size_t)n * sizeof *v);
  cb->z0 = malloc((size_t)n * sizeof *v);
  cb->Fz0 = malloc((size_t)n * sizeof *v);
  cb->carry = malloc(((size_t)carry_n + 1) * sizeof *v);
  if (!cb->hi || !cb->z0 || !cb->Fz0 || !cb->carry) return 1;
  memcpy(cb->hi, v + n, (size_t)n * sizeof *v);
  memcpy(cb->z0, v + 2 * n, (size_t)n * sizeof *v);
  memcpy(cb->Fz0, v + 3 * n, (size_t)n * sizeof *v);
  memcpy(cb->carry, v + 4 * n, (size_t)carry_n * sizeof *v);
  cb->carry_n = carry_n;
  return 0;
}

int corpus_read_callback(const struct corpus *c, int i, struct corpus_callback *cb, char *err, size_t len)
{
  const struct corpus_meta *m = &c->meta[i];
  memset(cb, 0, sizeof *cb);
  if (c->why[i][0]) return corpus_fail(err, len, "%s: corrupt: %s", m->name, c->why[i]);
  if (m->captured != 2 || c->version < 3)
    return corpus_fail(err, len, "%s: not a rebuildable callback problem", m->name);
  const struct corpus_slot *s = &c->at[i];
  const int n = m->n;
  cb->world = malloc((size_t)s->world_len + 1);
  cb->options = malloc((size_t)s->options_len + 1);
  double *v = malloc((4 * (size_t)n + (size_t)s->carry_n) * sizeof *v);
  int rc = !cb->world || !cb->options || !v ||
           corpus_read_slice(c->text, H5T_NATIVE_UCHAR, c->n_text, s->text_offset, s->world_len, cb->world) ||
           corpus_read_slice(c->text, H5T_NATIVE_UCHAR, c->n_text, s->text_offset + s->world_len,
                             s->options_len, cb->options) ||
           corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, s->values_offset,
                             4 * (int64_t)n + s->carry_n, v);
  if (!rc) {
    cb->world[s->world_len] = cb->options[s->options_len] = '\0';
    cb->world_len = (size_t)s->world_len;
    cb->options_len = (size_t)s->options_len;
    cb->warm = s->warm;
    rc = split_callback(cb, v, n, s->carry_n);
  } else {
    free(v);
  }
  if (rc) {
    corpus_callback_free(cb);
    return corpus_fail(err, len, "%s: unreadable rebuild data (corrupt?)", m->name);
  }
  return 0;
}

/* ---- what data may hold ---- */

int corpus_check_linear(const struct cp_problem *p, char *why, size_t len)
{
  const int n = p->n, lcp = p->kind == CP_LCP, mlcp = p->kind == CP_MLCP, fc = p->kind == CP_FC;
  why[0] = '\0';
  if (p->kind == CP_BOXED && cp_boxed_invalid(p, why, len)) return 1;
  for (int c = 0; fc && c < n / p->fc_dim; c++)
    if (!isfinite(p->mu[c]) || p->mu[c] < 0.0) return corpus_fail(why, len, "mu[%d] = %g", c, p->mu[c]);
  for (int i = 0; i < n; i++) {
    const double lo = p->lo[i], hi = p->hi[i];
    const int free_row = (mlcp && i < p->n_eq) || fc;
    if (!isfinite(p->q[i])) return corpus_fail(why, len, "q[%d] = %g", i, p->q[i]);
    if (isnan(lo) || isnan(hi) || lo > hi || lo == INFINITY || hi == -INFINITY)
      return corpus_fail(why, len, "bounds [%g, %g] of row %d", lo, hi, i);
    if ((lcp || mlcp || fc) && (free_row ? lo != -INFINITY || hi != INFINITY : lo != 0.0 || hi != INFINITY))
      return corpus_fail(why, len, "bounds [%g, %g] of row %d of %s (shifted data?)", lo, hi, i,
                         lcp    ? "an LCP"
                         : mlcp ? "an MLCP"
                                : "a frictional-contact problem");
  }
  for (size_t k = 0; k < (size_t)n * n; k++)
    if (!isfinite(p->M[k]))
      return corpus_fail(why, len, "M[%zu][%zu] = %g", k / (size_t)n, k % (size_t)n, p->M[k]);
  return 0;
}

int corpus_check_callback(const struct corpus_callback *cb, int n, char *why, size_t len)
{
  why[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (isnan(cb->lo[i]) || isnan(cb->hi[i]) || cb->lo[i] > cb->hi[i])
      return corpus_fail(why, len, "bounds [%g, %g] of row %d", cb->lo[i], cb->hi[i], i);
    if (!isfinite(cb->z0[i])) return corpus_fail(why, len, "z0[%d] = %g", i, cb->z0[i]);
  }
  return 0;
}

void corpus_close(struct corpus **c)
{
  if (!c || !*c) return;
  if ((*c)->values >= 0) H5Dclose((*c)->values);
  if ((*c)->indices >= 0) H5Dclose((*c)->indices);
  if ((*c)->text >= 0) H5Dclose((*c)->text);
  if ((*c)->file >= 0) H5Fclose((*c)->file);
  free((*c)->meta);
  free((*c)->at);
  free((*c)->why);
  free(*c);
  *c = NULL;
}
