/* corpus.c — the HDF5 problem corpus (corpus.h): append (open, one group, close: a killed writer leaves a
 * readable file), read, merge (H5Ocopy), and the Siconos numerics .dat writer for linear problems. HDF5's
 * own error stack printing is switched off: every failure becomes one message naming the file. */
#include "corpus.h"

#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct corpus {
  hid_t file;
  int n;
  struct corpus_meta *meta;
};

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

/* ---- attributes ---- */

static int put_attr(hid_t obj, const char *name, hid_t type, const void *v)
{
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
  int rc = a < 0 || H5Awrite(a, type, v) < 0;
  if (a >= 0) H5Aclose(a);
  H5Sclose(sp);
  return rc;
}

static int put_str(hid_t obj, const char *name, const char *v)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) + 1);
  int rc = put_attr(obj, name, t, v);
  H5Tclose(t);
  return rc;
}

static int put_int(hid_t obj, const char *name, long v) { return put_attr(obj, name, H5T_NATIVE_LONG, &v); }
static int put_real(hid_t obj, const char *name, double v)
{
  return put_attr(obj, name, H5T_NATIVE_DOUBLE, &v);
}

static int get_attr(hid_t obj, const char *name, hid_t type, void *v)
{
  if (H5Aexists(obj, name) <= 0) return 1;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  int rc = a < 0 || H5Aread(a, type, v) < 0;
  if (a >= 0) H5Aclose(a);
  return rc;
}

static int get_str(hid_t obj, const char *name, char *buf, size_t len)
{
  buf[0] = '\0';
  if (H5Aexists(obj, name) <= 0) return 1;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0) return 1;
  hid_t ft = H5Aget_type(a);
  size_t sz = H5Tget_size(ft);
  int rc = 1;
  char *tmp = H5Tget_class(ft) == H5T_STRING && !H5Tis_variable_str(ft) ? calloc(sz + 1, 1) : NULL;
  if (tmp) {
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, sz);
    rc = H5Aread(a, mt, tmp) < 0;
    H5Tclose(mt);
    snprintf(buf, len, "%s", tmp);
    free(tmp);
  }
  H5Tclose(ft);
  H5Aclose(a);
  return rc;
}

static long get_int(hid_t obj, const char *name, long def)
{
  long v = def;
  return get_attr(obj, name, H5T_NATIVE_LONG, &v) ? def : v;
}

static double get_real(hid_t obj, const char *name)
{
  double v = NAN;
  return get_attr(obj, name, H5T_NATIVE_DOUBLE, &v) ? NAN : v;
}

/* ---- datasets ---- */

static int put_data(hid_t g, const char *name, hid_t type, int rank, const hsize_t *dims, const void *v)
{
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  hid_t d = H5Dcreate2(g, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = d < 0 || H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0;
  if (d >= 0) H5Dclose(d);
  H5Sclose(sp);
  return rc;
}

/* Reads dataset name of exactly count elements into v. */
static int get_data(hid_t g, const char *name, hid_t type, hsize_t count, void *v)
{
  if (H5Lexists(g, name, H5P_DEFAULT) <= 0) return 1;
  hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
  if (d < 0) return 1;
  hid_t sp = H5Dget_space(d);
  hssize_t np = H5Sget_simple_extent_npoints(sp);
  int rc = np < 0 || (hsize_t)np != count || H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0;
  H5Sclose(sp);
  H5Dclose(d);
  return rc;
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

static int write_matrix(hid_t g, const struct cp_problem *p)
{
  const int n = p->n;
  size_t nnz = 0, nn = (size_t)n * (size_t)n;
  for (size_t k = 0; k < nn; k++)
    nnz += p->M[k] != 0.0;
  if (4 * nnz >= nn) {
    hsize_t dims[2] = {(hsize_t)n, (hsize_t)n};
    return put_str(g, "M_format", "dense") || put_data(g, "M", H5T_NATIVE_DOUBLE, 2, dims, p->M);
  }
  int *ptr = malloc(((size_t)n + 1) * sizeof *ptr), *idx = calloc(nnz + 1, sizeof *idx);
  double *val = calloc(nnz + 1, sizeof *val);
  int rc = 1;
  if (ptr && idx && val) {
    size_t k = 0;
    for (int i = 0; i < n; i++) {
      ptr[i] = (int)k;
      for (int j = 0; j < n; j++)
        if (p->M[(size_t)i * n + j] != 0.0) idx[k] = j, val[k++] = p->M[(size_t)i * n + j];
    }
    ptr[n] = (int)k;
    hsize_t dp = (hsize_t)n + 1, dn = (hsize_t)nnz;
    rc = put_str(g, "M_format", "csr") || put_data(g, "M_indptr", H5T_NATIVE_INT, 1, &dp, ptr) ||
         put_data(g, "M_indices", H5T_NATIVE_INT, 1, &dn, idx) ||
         put_data(g, "M_data", H5T_NATIVE_DOUBLE, 1, &dn, val);
  }
  free(ptr);
  free(idx);
  free(val);
  return rc;
}

static int write_group(hid_t g, const struct cp_problem *p, const struct corpus_meta *m)
{
  static const char *const rows[6] = {"rows_normal", "rows_friction", "rows_slack",
                                      "rows_joint",  "rows_velocity", "rows_other"};
  int captured = cp_is_linear(p);
  int rc = put_str(g, "kind", kind_text(p->kind)) || put_int(g, "n", p->n) || put_int(g, "n_eq", p->n_eq) ||
           put_str(g, "driver", m->driver) || put_str(g, "axes", m->axes) ||
           put_str(g, "formulation", m->formulation) || put_str(g, "solver", m->solver) ||
           put_str(g, "status", m->status) || put_str(g, "git_sha", m->git_sha) || put_real(g, "h", m->h) ||
           put_real(g, "t", m->t) || put_int(g, "step", m->step) || put_int(g, "task_id", m->task_id) ||
           put_int(g, "seed", (long)m->seed) || put_int(g, "captured", captured);
  for (int k = 0; k < 6 && !rc; k++)
    rc = put_int(g, rows[k], m->rows[k]);
  if (rc || !captured) return rc || put_str(g, "M_format", "none");
  hsize_t dn = (hsize_t)p->n;
  return put_data(g, "q", H5T_NATIVE_DOUBLE, 1, &dn, p->q) ||
         put_data(g, "lo", H5T_NATIVE_DOUBLE, 1, &dn, p->lo) ||
         put_data(g, "hi", H5T_NATIVE_DOUBLE, 1, &dn, p->hi) || write_matrix(g, p);
}

/* Opens path for appending (creating it with the schema version); a negative id on failure. */
static hid_t open_append(const char *path, char *err, size_t len)
{
  quiet();
  hid_t f;
  if (access(path, F_OK) == 0) {
    f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    long v = f >= 0 ? get_int(f, "schema_version", -1) : -1;
    if (f >= 0 && v != CORPUS_SCHEMA_VERSION) {
      H5Fclose(f);
      fail(err, len, "%s: schema version %ld, this build writes %d", path, v, CORPUS_SCHEMA_VERSION);
      return -1;
    }
    if (f < 0) fail(err, len, "%s: not a readable HDF5 corpus", path);
    return f;
  }
  f = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0 || put_int(f, "schema_version", CORPUS_SCHEMA_VERSION)) {
    if (f >= 0) H5Fclose(f);
    fail(err, len, "%s: cannot create", path);
    return -1;
  }
  return f;
}

struct corpus_writer {
  hid_t file;
  char path[1024];
  long count; /* problems in the file */
};

int corpus_writer_open(const char *path, struct corpus_writer **w, char *err, size_t len)
{
  *w = calloc(1, sizeof **w);
  if (!*w) return fail(err, len, "out of memory");
  (*w)->file = open_append(path, err, len);
  H5G_info_t info;
  if ((*w)->file < 0 || H5Gget_info((*w)->file, &info) < 0) {
    if ((*w)->file >= 0) H5Fclose((*w)->file);
    free(*w);
    *w = NULL;
    return 1;
  }
  (*w)->count = (long)info.nlinks;
  snprintf((*w)->path, sizeof(*w)->path, "%s", path);
  return 0;
}

int corpus_writer_add(struct corpus_writer *w, const struct cp_problem *p, const struct corpus_meta *m,
                      long cap, char *err, size_t len)
{
  if (cap > 0 && w->count >= cap) return 3;
  if (H5Lexists(w->file, m->name, H5P_DEFAULT) > 0)
    return fail(err, len, "%s: a problem named %s is already there", w->path, m->name);
  hid_t g = H5Gcreate2(w->file, m->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int rc = g < 0 || write_group(g, p, m);
  if (g >= 0) H5Gclose(g);
  /* flushed per problem: the file on disk is whole after every problem, whatever happens next */
  if (!rc) rc = H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0;
  if (rc) return fail(err, len, "%s: cannot write %s", w->path, m->name);
  w->count++;
  return 0;
}

int corpus_writer_close(struct corpus_writer **w)
{
  if (!w || !*w) return 0;
  int rc = H5Fclose((*w)->file) < 0;
  free(*w);
  *w = NULL;
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

static void read_meta(hid_t g, const char *name, struct corpus_meta *m)
{
  static const char *const rows[6] = {"rows_normal", "rows_friction", "rows_slack",
                                      "rows_joint",  "rows_velocity", "rows_other"};
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", name);
  get_str(g, "kind", m->kind, sizeof m->kind);
  get_str(g, "driver", m->driver, sizeof m->driver);
  get_str(g, "formulation", m->formulation, sizeof m->formulation);
  get_str(g, "solver", m->solver, sizeof m->solver);
  get_str(g, "status", m->status, sizeof m->status);
  get_str(g, "axes", m->axes, sizeof m->axes);
  get_str(g, "git_sha", m->git_sha, sizeof m->git_sha);
  m->h = get_real(g, "h");
  m->t = get_real(g, "t");
  m->step = get_int(g, "step", -1);
  m->task_id = get_int(g, "task_id", -1);
  m->seed = (unsigned long)get_int(g, "seed", 0);
  m->n = (int)get_int(g, "n", -1);
  m->n_eq = (int)get_int(g, "n_eq", 0);
  m->captured = (int)get_int(g, "captured", 0);
  for (int k = 0; k < 6; k++)
    m->rows[k] = (int)get_int(g, rows[k], 0);
}

int corpus_open(const char *path, struct corpus **out, char *err, size_t len)
{
  quiet();
  *out = NULL;
  if (access(path, R_OK) != 0) return fail(err, len, "%s: cannot read the file", path), 2;
  if (H5Fis_hdf5(path) <= 0) return fail(err, len, "%s: not an HDF5 file (corrupt or truncated?)", path), 2;
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return fail(err, len, "%s: HDF5 cannot open it (corrupt or truncated?)", path), 2;
  long v = get_int(f, "schema_version", -1);
  if (v != CORPUS_SCHEMA_VERSION) {
    H5Fclose(f);
    return fail(err, len, "%s: schema version %ld, this build reads %d", path, v, CORPUS_SCHEMA_VERSION), 2;
  }
  H5G_info_t info;
  struct corpus *c = calloc(1, sizeof *c);
  if (!c || H5Gget_info(f, &info) < 0) {
    free(c);
    H5Fclose(f);
    return fail(err, len, "%s: cannot list the problems (corrupt?)", path), 2;
  }
  c->file = f;
  c->meta = calloc(info.nlinks ? info.nlinks : 1, sizeof *c->meta);
  if (!c->meta) {
    corpus_close(&c);
    return fail(err, len, "out of memory"), 2;
  }
  for (hsize_t i = 0; i < info.nlinks; i++) {
    char name[128];
    if (H5Lget_name_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0) {
      corpus_close(&c);
      return fail(err, len, "%s: problem %lu unreadable (corrupt?)", path, (unsigned long)i), 2;
    }
    hid_t g = H5Gopen2(f, name, H5P_DEFAULT);
    if (g < 0) {
      corpus_close(&c);
      return fail(err, len, "%s: group %s unreadable (corrupt?)", path, name), 2;
    }
    read_meta(g, name, &c->meta[c->n++]);
    H5Gclose(g);
  }
  *out = c;
  return 0;
}

int corpus_count(const struct corpus *c) { return c->n; }
const struct corpus_meta *corpus_meta_at(const struct corpus *c, int i) { return &c->meta[i]; }

int corpus_find(const struct corpus *c, const char *name)
{
  for (int i = 0; i < c->n; i++)
    if (strcmp(c->meta[i].name, name) == 0) return i;
  return -1;
}

static int read_matrix(hid_t g, struct cp_problem *p)
{
  char fmt[16];
  const int n = p->n;
  get_str(g, "M_format", fmt, sizeof fmt);
  if (strcmp(fmt, "dense") == 0) return get_data(g, "M", H5T_NATIVE_DOUBLE, (hsize_t)n * (hsize_t)n, p->M);
  if (strcmp(fmt, "csr") != 0) return 1;
  int *ptr = malloc(((size_t)n + 1) * sizeof *ptr), rc = 1;
  if (!ptr || get_data(g, "M_indptr", H5T_NATIVE_INT, (hsize_t)n + 1, ptr) || ptr[0] != 0 || ptr[n] < 0 ||
      ptr[n] > n * n) {
    free(ptr);
    return 1;
  }
  size_t nnz = (size_t)ptr[n];
  int *idx = malloc((nnz ? nnz : 1) * sizeof *idx);
  double *val = malloc((nnz ? nnz : 1) * sizeof *val);
  if (idx && val && !get_data(g, "M_indices", H5T_NATIVE_INT, nnz, idx) &&
      !get_data(g, "M_data", H5T_NATIVE_DOUBLE, nnz, val)) {
    rc = 0;
    memset(p->M, 0, (size_t)n * n * sizeof *p->M);
    for (int i = 0; i < n && !rc; i++)
      for (int k = ptr[i]; k < ptr[i + 1] && !rc; k++) {
        if (k < 0 || (size_t)k >= nnz || idx[k] < 0 || idx[k] >= n || ptr[i + 1] < ptr[i]) {
          rc = 1;
          break;
        }
        p->M[(size_t)i * n + idx[k]] = val[k];
      }
  }
  free(ptr);
  free(idx);
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
  hid_t g = H5Gopen2(c->file, m->name, H5P_DEFAULT);
  if (g < 0) return fail(err, len, "%s: cannot open the group", m->name);
  struct cp_problem *p = NULL;
  if (strcmp(m->kind, "lcp") == 0)
    p = cp_lcp_create(m->n);
  else if (strcmp(m->kind, "mlcp") == 0)
    p = m->n_eq < m->n ? cp_mlcp_create(m->n_eq, m->n - m->n_eq) : NULL;
  else if (strcmp(m->kind, "box_mcp") == 0)
    p = cp_box_create(m->n);
  int rc = !p || get_data(g, "q", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->q) ||
           get_data(g, "lo", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->lo) ||
           get_data(g, "hi", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->hi) || read_matrix(g, p);
  H5Gclose(g);
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
  if ((*c)->file >= 0) H5Fclose((*c)->file);
  free((*c)->meta);
  free(*c);
  *c = NULL;
}

/* ---- merge ---- */

int corpus_merge(const char *out, const char *const *in, int n_in, char *err, size_t len)
{
  hid_t dst = open_append(out, err, len);
  if (dst < 0) return 2;
  int rc = 0;
  for (int k = 0; k < n_in && !rc; k++) {
    struct corpus *c = NULL;
    if (corpus_open(in[k], &c, err, len)) {
      rc = 2;
      break;
    }
    for (int i = 0; i < c->n && !rc; i++) {
      char name[160];
      snprintf(name, sizeof name, "%s", c->meta[i].name);
      if (H5Lexists(dst, name, H5P_DEFAULT) > 0) snprintf(name, sizeof name, "%s_in%d", c->meta[i].name, k);
      if (H5Ocopy(c->file, c->meta[i].name, dst, name, H5P_DEFAULT, H5P_DEFAULT) < 0) {
        fail(err, len, "%s: cannot copy %s into %s", in[k], c->meta[i].name, out);
        rc = 2;
      }
    }
    corpus_close(&c);
  }
  if (H5Fclose(dst) < 0 && !rc) {
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
