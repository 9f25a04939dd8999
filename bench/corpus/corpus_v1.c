/* corpus_v1.c — the version 1 corpus layout (corpus_v1.h), read only: one group per problem named after it,
 * its metadata as attributes (kind, n, n_eq, M_format, driver, axes, formulation, solver, status, git_sha,
 * h, t, step, task_id, seed, rows_normal ... rows_other, captured), its data as datasets q, lo, hi and M
 * (dense) or M_indptr, M_indices, M_data (CSR). Kept so that committed and older corpora stay readable and
 * convertible (`bench_corpus -merge NEW.h5 OLD.h5`). */
#include "corpus_v1.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Elements dataset name of g holds as stored (its extent, if its storage holds that many); -1 otherwise. */
static long long stored_points(hid_t g, const char *name)
{
  if (H5Lexists(g, name, H5P_DEFAULT) <= 0) return -1;
  hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
  if (d < 0) return -1;
  hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
  hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
  size_t elem = t >= 0 ? H5Tget_size(t) : 0;
  if (np >= 0 && (!elem || (double)H5Dget_storage_size(d) < (double)np * (double)elem)) np = -1;
  if (t >= 0) H5Tclose(t);
  if (sp >= 0) H5Sclose(sp);
  H5Dclose(d);
  return (long long)np;
}

int corpus_v1_sizes(hid_t f, const struct corpus_meta *m, off_t file_size)
{
  hid_t g = H5Gopen2(f, m->name, H5P_DEFAULT);
  if (g < 0) return 1;
  char fmt[16];
  const long long n = m->n;
  get_str(g, "M_format", fmt, sizeof fmt);
  const int dense = strcmp(fmt, "dense") == 0;
  int bad = stored_points(g, "q") != n ||
            (dense ? stored_points(g, "M") != n * n || (double)n * (double)n * 8.0 > (double)file_size
                   : stored_points(g, "M_indptr") != n + 1);
  H5Gclose(g);
  return bad;
}

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

int corpus_v1_list(hid_t f, const char *path, struct corpus_meta **meta, int *n, char *err, size_t len)
{
  H5G_info_t info;
  *meta = NULL;
  *n = 0;
  if (H5Gget_info(f, &info) < 0 || info.nlinks > INT_MAX)
    return snprintf(err, len, "%s: cannot list the problems (corrupt?)", path), 1;
  struct corpus_meta *m = calloc(info.nlinks ? info.nlinks : 1, sizeof *m);
  if (!m) return snprintf(err, len, "out of memory"), 1;
  for (hsize_t i = 0; i < info.nlinks; i++) {
    char name[128];
    hid_t g = -1;
    if (H5Lget_name_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0 ||
        (g = H5Gopen2(f, name, H5P_DEFAULT)) < 0) {
      free(m);
      return snprintf(err, len, "%s: problem %lu unreadable (corrupt?)", path, (unsigned long)i), 1;
    }
    read_meta(g, name, &m[i]);
    H5Gclose(g);
  }
  *meta = m;
  *n = (int)info.nlinks;
  return 0;
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

int corpus_v1_read(hid_t f, const struct corpus_meta *m, struct cp_problem *p)
{
  hid_t g = H5Gopen2(f, m->name, H5P_DEFAULT);
  if (g < 0) return 1;
  int rc = get_data(g, "q", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->q) ||
           get_data(g, "lo", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->lo) ||
           get_data(g, "hi", H5T_NATIVE_DOUBLE, (hsize_t)m->n, p->hi) || read_matrix(g, p);
  H5Gclose(g);
  return rc;
}
