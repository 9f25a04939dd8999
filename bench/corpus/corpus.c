/* corpus.c — reading the problem corpus (corpus.h): version 2 (corpus_layout.h) here, version 1 through
 * corpus_v1.c; merge (every input through the reader into one writer, so it also converts version 1
 * files); the Siconos numerics .dat writer for linear problems. */
#include "corpus_layout.h"
#include "corpus_v1.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- reading ---- */

struct corpus {
  hid_t file, values, indices, text;
  int version, n;
  hsize_t n_values, n_indices, n_text;
  struct corpus_meta *meta;
  struct slot {
    int64_t values_offset, indices_offset, nnz, text_offset;
    int format, world_len, options_len, carry_n, warm;
  } * at; /* versions 2, 3: where each problem's data is */
};

static int open_v2(struct corpus *c, const char *path, char *err, size_t len)
{
  hid_t d = H5Dopen2(c->file, "problems", H5P_DEFAULT);
  c->values = H5Dopen2(c->file, "values", H5P_DEFAULT);
  c->indices = H5Dopen2(c->file, "indices", H5P_DEFAULT);
  if (c->version >= 3) {
    c->text = H5Dopen2(c->file, "text", H5P_DEFAULT);
    if (c->text < 0 || corpus_extent(c->text, &c->n_text)) {
      if (d >= 0) H5Dclose(d);
      return corpus_fail(err, len, "%s: not a corpus (dataset text; corrupt?)", path);
    }
  }
  hsize_t n = 0;
  if (d < 0 || c->values < 0 || c->indices < 0 || corpus_extent(d, &n) ||
      corpus_extent(c->values, &c->n_values) || corpus_extent(c->indices, &c->n_indices) || n > 100000000) {
    if (d >= 0) H5Dclose(d);
    return corpus_fail(err, len, "%s: not a corpus (datasets problems, values, indices; corrupt?)", path);
  }
  hid_t t = c->version >= 3 ? corpus_row_type() : corpus_row_type_v2();
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
    c->at[i] = (struct slot){x->values_offset, x->indices_offset, x->nnz,     x->text_offset, FMT_NONE,
                             x->world_len,     x->options_len,    x->carry_n, x->warm};
    for (int f = 0; f < 3; f++)
      if (strcmp(x->m_format, corpus_fmt_text[f]) == 0) c->at[i].format = f;
  }
  free(r);
  if (rc) return corpus_fail(err, len, "%s: cannot read the problem table (corrupt?)", path);
  c->n = (int)n;
  return 0;
}

int corpus_open(const char *path, struct corpus **out, char *err, size_t len)
{
  corpus_quiet();
  *out = NULL;
  if (access(path, R_OK) != 0) return corpus_fail(err, len, "%s: cannot read the file", path), 2;
  if (H5Fis_hdf5(path) <= 0)
    return corpus_fail(err, len, "%s: not an HDF5 file (corrupt or truncated?)", path), 2;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return corpus_fail(err, len, "%s: HDF5 cannot open it (corrupt or truncated?)", path), 2;
  long v = corpus_get_version(f);
  if (v != 1 && v != 2 && v != CORPUS_SCHEMA_VERSION) {
    H5Fclose(f);
    return corpus_fail(err, len, "%s: schema version %ld, this build reads 1, 2 and %d", path, v,
                       CORPUS_SCHEMA_VERSION),
           2;
  }
  struct corpus *c = calloc(1, sizeof *c);
  if (!c) return H5Fclose(f), corpus_fail(err, len, "out of memory"), 2;
  c->file = f;
  c->values = c->indices = c->text = -1;
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
  int rc = !qlh || corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, s->values_offset,
                                     3 * (int64_t)n, qlh);
  if (!rc) {
    memcpy(p->q, qlh, (size_t)n * sizeof *qlh);
    memcpy(p->lo, qlh + n, (size_t)n * sizeof *qlh);
    memcpy(p->hi, qlh + 2 * n, (size_t)n * sizeof *qlh);
  }
  free(qlh);
  if (rc) return 1;
  const int64_t at = s->values_offset + 3 * (int64_t)n;
  if (s->format == FMT_DENSE)
    return corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, nn, p->M);
  if (s->format != FMT_CSR || s->nnz < 0 || s->nnz > nn) return 1;
  int32_t *ptr = malloc(((size_t)n + 1 + (size_t)s->nnz) * sizeof *ptr), *col = ptr ? ptr + n + 1 : NULL;
  double *val = malloc(((size_t)s->nnz + 1) * sizeof *val);
  rc =
      !ptr || !val ||
      corpus_read_slice(c->indices, H5T_NATIVE_INT32, c->n_indices, s->indices_offset, n + 1 + s->nnz, ptr) ||
      corpus_read_slice(c->values, H5T_NATIVE_DOUBLE, c->n_values, at, s->nnz, val) || ptr[0] != 0 ||
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
  if (!m->captured) return corpus_fail(err, len, "%s: not captured (callback problem)", m->name);
  if (m->captured == 2)
    return corpus_fail(err, len, "%s: a callback problem: rebuilt through its formulation, not read",
                       m->name);
  if (m->n < 1 || m->n > 100000 || m->n_eq < 0 || m->n_eq > m->n)
    return corpus_fail(err, len, "%s: bad size n = %d, n_eq = %d", m->name, m->n, m->n_eq);
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

int corpus_read_callback(const struct corpus *c, int i, struct corpus_callback *cb, char *err, size_t len)
{
  const struct corpus_meta *m = &c->meta[i];
  memset(cb, 0, sizeof *cb);
  if (m->captured != 2 || c->version < 3)
    return corpus_fail(err, len, "%s: not a rebuildable callback problem", m->name);
  const struct slot *s = &c->at[i];
  const int n = m->n;
  if (n < 1 || n > 1000000 || s->world_len < 1 || s->options_len < 0 || s->carry_n < 0)
    return corpus_fail(err, len, "%s: bad sizes of its rebuild data (corrupt?)", m->name);
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
    cb->lo = v;
    cb->hi = malloc((size_t)n * sizeof *v);
    cb->z0 = malloc((size_t)n * sizeof *v);
    cb->Fz0 = malloc((size_t)n * sizeof *v);
    cb->carry = malloc(((size_t)s->carry_n + 1) * sizeof *v);
    rc = !cb->hi || !cb->z0 || !cb->Fz0 || !cb->carry;
    if (!rc) {
      memcpy(cb->hi, v + n, (size_t)n * sizeof *v);
      memcpy(cb->z0, v + 2 * n, (size_t)n * sizeof *v);
      memcpy(cb->Fz0, v + 3 * n, (size_t)n * sizeof *v);
      memcpy(cb->carry, v + 4 * n, (size_t)s->carry_n * sizeof *v);
      cb->carry_n = s->carry_n;
      cb->warm = s->warm;
    }
  } else {
    free(v);
  }
  if (rc) {
    corpus_callback_free(cb);
    return corpus_fail(err, len, "%s: unreadable rebuild data (corrupt?)", m->name);
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
      if (corpus_writer_has(w, m.name)) snprintf(m.name, sizeof m.name, "%.100s_in%d", c->meta[i].name, k);
      struct cp_problem *p = NULL;
      struct corpus_callback cb = {0};
      if (m.captured == 1 && corpus_read(c, i, &p, err, len)) rc = 2;
      if (m.captured == 2 && corpus_read_callback(c, i, &cb, err, len)) rc = 2;
      if (!rc && corpus_writer_add_callback(w, p, &m, m.captured == 2 ? &cb : NULL, 0, err, len)) rc = 2;
      corpus_callback_free(&cb);
      cp_destroy(&p);
    }
    corpus_close(&c);
  }
  if (corpus_writer_close(&w) && !rc) {
    corpus_fail(err, len, "%s: close failed", out);
    rc = 2;
  }
  return rc;
}

/* ---- Siconos numerics .dat ---- */

int corpus_write_siconos(const char *path, const struct cp_problem *p, char *err, size_t len)
{
  if (!cp_is_linear(p)) return corpus_fail(err, len, "%s: a callback problem", p->name);
  const int n = p->n, ne = p->n_eq, m = n - ne;
  for (int i = ne; i < n; i++)
    if (p->lo[i] != 0.0 || !isinf(p->hi[i]))
      return corpus_fail(err, len, "%s: row %d has bounds [%g, %g], not an LCP row", p->name, i, p->lo[i],
                         p->hi[i]);
  FILE *fp = fopen(path, "w");
  if (!fp) return corpus_fail(err, len, "%s: cannot write", path);
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
  if (fclose(fp) != 0) return corpus_fail(err, len, "%s: write failed", path);
  return 0;
}
