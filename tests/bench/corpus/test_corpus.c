/* test_corpus.c — the HDF5 problem corpus (corpus.h): an LCP stored dense and a sparse MLCP stored as CSR
 * read back bit for bit (M, q, bounds with their infinities) with their metadata; the cap stops appends;
 * a duplicate name is refused; merge joins two files (renaming a clash); the Siconos .dat writer's files
 * read back through cp_io's Siconos reader to the same data; a version 1 file (one group per problem) is
 * read and converted to version 2 by merge; another schema version, a truncated file and a file that is
 * not HDF5 are refused with status 2 and a message. Boxed LCPs with friction index (kind boxed): dense and
 * CSR ones read back with their findex, through the capture stream too; the Siconos export leaves them out.
 */
#include "check.h"
#include "corpus.h"
#include "corpus_stream.h"
#include "cp_io.h"

#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int same(const struct cp_problem *a, const struct cp_problem *b)
{
  if (a->kind != b->kind || a->n != b->n || a->n_eq != b->n_eq) return 0;
  for (int i = 0; i < a->n; i++)
    if (a->q[i] != b->q[i] || a->lo[i] != b->lo[i] || a->hi[i] != b->hi[i]) return 0;
  return memcmp(a->M, b->M, (size_t)a->n * a->n * sizeof *a->M) == 0;
}

static void meta(struct corpus_meta *m, const char *name, long step)
{
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", name);
  snprintf(m->driver, sizeof m->driver, "incline");
  snprintf(m->formulation, sizeof m->formulation, "stewart_trinkle");
  snprintf(m->solver, sizeof m->solver, "lemke");
  snprintf(m->status, sizeof m->status, "converged");
  snprintf(m->axes, sizeof m->axes, "h=0.01;theta=20");
  m->h = 0.01;
  m->step = step;
  m->task_id = 7;
  m->rows[0] = 2, m->rows[1] = 4, m->rows[2] = 2;
}

static void attr(hid_t obj, const char *name, hid_t type, const void *v)
{
  hid_t sp = H5Screate(H5S_SCALAR), a = H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, type, v);
  H5Aclose(a);
  H5Sclose(sp);
}

static void text(hid_t obj, const char *name, const char *v)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) + 1);
  attr(obj, name, t, v);
  H5Tclose(t);
}

static void data(hid_t g, const char *name, int rank, const hsize_t *dims, const double *v)
{
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  hid_t d = H5Dcreate2(g, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Dclose(d);
  H5Sclose(sp);
}

/* A version 1 file (the layout corpus_v1.c reads) holding the dense LCP p as problem name. */
static void write_v1(const char *path, const char *name, const struct cp_problem *p)
{
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), g = H5Gcreate2(f, name, 0, 0, 0);
  long one = 1, n = p->n, zero = 0, step = 4;
  double h = 0.01;
  attr(f, "schema_version", H5T_NATIVE_LONG, &one);
  text(g, "kind", "lcp");
  text(g, "M_format", "dense");
  text(g, "driver", "incline");
  text(g, "formulation", "stewart_trinkle");
  attr(g, "n", H5T_NATIVE_LONG, &n);
  attr(g, "n_eq", H5T_NATIVE_LONG, &zero);
  attr(g, "captured", H5T_NATIVE_LONG, &one);
  attr(g, "step", H5T_NATIVE_LONG, &step);
  attr(g, "h", H5T_NATIVE_DOUBLE, &h);
  hsize_t dn = (hsize_t)p->n, dm[2] = {dn, dn};
  data(g, "q", 1, &dn, p->q);
  data(g, "lo", 1, &dn, p->lo);
  data(g, "hi", 1, &dn, p->hi);
  data(g, "M", 2, dm, p->M);
  H5Gclose(g);
  H5Fclose(f);
}

/* The test's files, all in one temporary directory, and the corpus calls' message buffer: one for the
 * whole test, so a check's message shows what the last call that wrote one said. */
struct corpus_test {
  char dir[32], a[256], b[256], merged[256];
  char err[512];
};

/* A dense LCP (every entry nonzero) and a sparse MLCP (CSR when stored). */
static void make_problems(struct cp_problem **lcp, struct cp_problem **mlcp)
{
  *lcp = cp_lcp_create(3), *mlcp = cp_mlcp_create(2, 6);
  for (int i = 0; i < 9; i++)
    (*lcp)->M[i] = 1.0 + i / 7.0;
  for (int i = 0; i < 3; i++)
    (*lcp)->q[i] = -1.0 + i * M_PI;
  for (int i = 0; i < 8; i++) {
    (*mlcp)->M[i * 8 + i] = 2.0 + i;
    (*mlcp)->q[i] = i % 2 ? -0.1 * i : 0.3;
  }
  (*mlcp)->M[1] = -1.0 / 3.0;
}

/* Both problems appended to a.h5 (a duplicate name refused, the cap stopping a third) and read back with
 * their metadata. */
static void test_append_read(struct corpus_test *d, const struct cp_problem *lcp,
                             const struct cp_problem *mlcp)
{
  struct corpus_meta m;
  meta(&m, "incline_task7_step1", 1);
  CHECK(corpus_append(d->a, lcp, &m, 0, d->err, sizeof d->err) == 0, "append a dense LCP (%s)", d->err);
  meta(&m, "incline_task7_step2", 2);
  CHECK(corpus_append(d->a, mlcp, &m, 0, d->err, sizeof d->err) == 0, "append a sparse MLCP (%s)", d->err);
  CHECK(corpus_append(d->a, mlcp, &m, 0, d->err, sizeof d->err) == 1 && strstr(d->err, "already"),
        "a duplicate name is refused: %s", d->err);
  /* a name that would break a table row, a list or a path is refused where it enters, naming the character
   * as run_text_check words it for -run names and axis values */
  static const struct {
    const char *name, *said;
  } bad[] = {{"incline,x", "a comma (the run's tables are comma-separated) at character 8 of 'incline,x'"},
             {"incline\nx", "a newline at character 8 of 'incline?x'"},
             {"../x", "a '/' (a name is one folder) at character 3 of '../x'"},
             {"a b", "a ' ' at character 2 of 'a b'"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    meta(&m, bad[k].name, 4);
    CHECK(corpus_append(d->a, mlcp, &m, 0, d->err, sizeof d->err) == 1 &&
              strstr(d->err, "a problem name cannot hold") && strstr(d->err, bad[k].said),
          "a problem name with %s is refused: %s", bad[k].said, d->err);
  }
  meta(&m, "incline_task7_step3", 3);
  CHECK(corpus_append(d->a, mlcp, &m, 2, d->err, sizeof d->err) == 3, "the cap (2 problems) stops the third");

  struct corpus *c = NULL;
  CHECK(corpus_open(d->a, &c, d->err, sizeof d->err) == 0 && corpus_count(c) == 2, "open: 2 problems (%s)",
        d->err);
  if (!c) return;
  struct cp_problem *p = NULL;
  int i = corpus_find(c, "incline_task7_step1"), j = corpus_find(c, "incline_task7_step2");
  CHECK(i >= 0 && corpus_read(c, i, &p, d->err, sizeof d->err) == 0 && same(p, lcp), "the LCP reads back");
  const struct corpus_meta *r = corpus_meta_at(c, i);
  CHECK(!strcmp(r->driver, "incline") && !strcmp(r->formulation, "stewart_trinkle") && r->h == 0.01 &&
            r->step == 1 && r->task_id == 7 && r->rows[1] == 4 && !strcmp(r->kind, "lcp") && r->captured,
        "its metadata reads back");
  cp_destroy(&p);
  CHECK(j >= 0 && corpus_read(c, j, &p, d->err, sizeof d->err) == 0 && same(p, mlcp) && isinf(p->lo[0]),
        "the MLCP (CSR, free rows at -inf) reads back");
  cp_destroy(&p);
  corpus_close(&c);
}

/* Siconos .dat: written, then read by cp_io's reader. */
static void test_siconos_dat(struct corpus_test *d, const struct cp_problem *lcp,
                             const struct cp_problem *mlcp)
{
  char dat[256];
  struct cp_problem *back = NULL;
  snprintf(dat, sizeof dat, "%s/x_lcp.dat", d->dir);
  CHECK(corpus_write_siconos(dat, lcp, d->err, sizeof d->err) == 0 &&
            cp_read_file(dat, CP_FILE_SICONOS_LCP, &back, d->err, sizeof d->err) == 0 && same(back, lcp),
        "Siconos LCP .dat round trip (%s)", d->err);
  cp_destroy(&back);
  snprintf(dat, sizeof dat, "%s/x_mlcp.dat", d->dir);
  CHECK(corpus_write_siconos(dat, mlcp, d->err, sizeof d->err) == 0 &&
            cp_read_file(dat, CP_FILE_SICONOS_MLCP, &back, d->err, sizeof d->err) == 0 && same(back, mlcp),
        "Siconos MLCP .dat round trip (%s)", d->err);
  cp_destroy(&back);
}

/* merge: a.h5 with a second file, b.h5, whose one problem's name clashes. */
static void test_merge(struct corpus_test *d, const struct cp_problem *mlcp)
{
  struct corpus_meta m;
  struct corpus *c = NULL;
  meta(&m, "incline_task7_step1", 1);
  corpus_append(d->b, mlcp, &m, 0, d->err, sizeof d->err);
  const char *in[2] = {d->a, d->b};
  CHECK(corpus_merge(d->merged, in, 2, d->err, sizeof d->err) == 0, "merge two files (%s)", d->err);
  CHECK(corpus_open(d->merged, &c, d->err, sizeof d->err) == 0 && corpus_count(c) == 3 &&
            corpus_find(c, "incline_task7_step1_in1") >= 0,
        "the merged file holds 3 problems, the clash renamed");
  corpus_close(&c);
}

/* A writer that dies without closing (as under kill -9) leaves every batch written before: 300 problems
 * added, the first CORPUS_BATCH_PROBLEMS of them flushed as one batch, the rest lost with the process. */
static void test_dead_writer(struct corpus_test *d, const struct cp_problem *lcp,
                             const struct cp_problem *mlcp)
{
  char dead[256];
  struct corpus *c = NULL;
  snprintf(dead, sizeof dead, "%s/dead.h5", d->dir);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct corpus_writer *w = NULL;
    struct corpus_meta m;
    if (corpus_writer_open(dead, &w, d->err, sizeof d->err)) _exit(1);
    for (int k = 0; k < 300; k++) {
      meta(&m, "x", k);
      snprintf(m.name, sizeof m.name, "incline_task9_step%d", k + 1);
      if (corpus_writer_add(w, k % 2 ? mlcp : lcp, &m, 0, d->err, sizeof d->err)) _exit(1);
    }
    _exit(0); /* no close: the last batch is never written */
  }
  int st = -1;
  waitpid(pid, &st, 0);
  /* (exactly the first batch unless a second came from the 1 s rule on a stalled machine) */
  CHECK(st == 0 && corpus_open(dead, &c, d->err, sizeof d->err) == 0 &&
            corpus_count(c) >= CORPUS_BATCH_PROBLEMS && corpus_count(c) < 300,
        "a writer gone without closing: the file reads and holds the first batch, not the rest (%s)", d->err);
  if (c) printf("# %d problems of 300 in it\n", corpus_count(c));
  if (c) {
    struct cp_problem *p = NULL;
    int last = corpus_find(c, "incline_task9_step256");
    CHECK(last >= 0 && corpus_read(c, last, &p, d->err, sizeof d->err) == 0 && same(p, mlcp),
          "its last problem reads back whole");
    cp_destroy(&p);
  }
  corpus_close(&c);
}

/* A version 1 file: read, converted by merge, and refused to appends. */
static void test_version1(struct corpus_test *d, const struct cp_problem *lcp)
{
  char v1[256], v2[256];
  struct corpus *c = NULL;
  struct corpus_meta m;
  snprintf(v1, sizeof v1, "%s/v1.h5", d->dir);
  snprintf(v2, sizeof v2, "%s/v2.h5", d->dir);
  write_v1(v1, "incline_task3_step4", lcp);
  const char *old[1] = {v1};
  struct cp_problem *p1 = NULL;
  CHECK(corpus_open(v1, &c, d->err, sizeof d->err) == 0 && corpus_schema(c) == 1 && corpus_count(c) == 1 &&
            corpus_read(c, 0, &p1, d->err, sizeof d->err) == 0 && same(p1, lcp) &&
            corpus_meta_at(c, 0)->step == 4,
        "a version 1 file reads (%s)", d->err);
  corpus_close(&c);
  cp_destroy(&p1);
  CHECK(corpus_merge(v2, old, 1, d->err, sizeof d->err) == 0 &&
            corpus_open(v2, &c, d->err, sizeof d->err) == 0 && corpus_schema(c) == CORPUS_SCHEMA_VERSION &&
            corpus_read(c, 0, &p1, d->err, sizeof d->err) == 0 && same(p1, lcp) &&
            !strcmp(corpus_meta_at(c, 0)->driver, "incline") && corpus_meta_at(c, 0)->h == 0.01,
        "merge converts it to the current version, bit for bit (%s)", d->err);
  corpus_close(&c);
  cp_destroy(&p1);
  meta(&m, "incline_task7_step1", 1);
  CHECK(corpus_append(v1, lcp, &m, 0, d->err, sizeof d->err) == 1 && strstr(d->err, "schema version 1"),
        "appending to a version 1 file is refused: %s", d->err);
}

/* Bad input: another schema version (b.h5 rewritten), truncated (a.h5 cut in half), not HDF5, missing. */
static void test_bad_files(struct corpus_test *d)
{
  struct corpus *c = NULL;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(d->b, H5F_ACC_RDWR, H5P_DEFAULT);
  long v = 99;
  hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_LONG, &v);
  H5Aclose(a);
  H5Fclose(f);
  CHECK(corpus_open(d->b, &c, d->err, sizeof d->err) == 2 && strstr(d->err, "schema version 99"),
        "another schema version: %s", d->err);
  FILE *fp = fopen(d->a, "r+");
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fclose(fp);
  CHECK(truncate(d->a, size / 2) == 0 && corpus_open(d->a, &c, d->err, sizeof d->err) == 2, "truncated: %s",
        d->err);
  fp = fopen(d->b, "w");
  fputs("not hdf5\n", fp);
  fclose(fp);
  CHECK(corpus_open(d->b, &c, d->err, sizeof d->err) == 2, "not HDF5: %s", d->err);
  CHECK(corpus_open("/nonexistent/x.h5", &c, d->err, sizeof d->err) == 2, "missing: %s", d->err);
}

/* Boxed problems of n contacts x 3 rows: W tridiagonal (dense below n = 2, CSR above), friction rows 1, 2 of
 * each contact indexed to its normal. */
static struct cp_problem *boxed_problem(int nc)
{
  int n = 3 * nc;
  struct cp_problem *p = cp_boxed_create(n);
  for (int i = 0; i < n; i++) {
    p->M[(size_t)i * n + i] = 2.0 + 0.1 * i;
    if (i + 1 < n) p->M[(size_t)i * n + i + 1] = p->M[(size_t)(i + 1) * n + i] = -0.3;
    p->q[i] = i % 3 ? 0.25 * i : -1.0 - i;
    if (i % 3) p->findex[i] = i - i % 3, p->lo[i] = -0.4, p->hi[i] = 0.4;
  }
  return p;
}

static int same_boxed(const struct cp_problem *a, const struct cp_problem *b)
{
  if (!b || !same(a, b) || !b->findex) return 0;
  return memcmp(a->findex, b->findex, (size_t)a->n * sizeof *a->findex) == 0;
}

static int stream_copy(void *ctx, const struct cp_problem *p, const struct corpus_meta *m,
                       const struct corpus_callback *cb)
{
  (void)m;
  (void)cb;
  *(struct cp_problem **)ctx = cp_duplicate(p);
  return 0;
}

static void test_boxed(struct corpus_test *d)
{
  char path[300], dir[300];
  struct cp_problem *small = boxed_problem(1), *large = boxed_problem(8), *back = NULL;
  struct corpus_meta m;
  struct corpus *c = NULL;
  snprintf(path, sizeof path, "%s/boxed.h5", d->dir);
  meta(&m, "boxed_dense", 1);
  int rc = corpus_append(path, small, &m, 0, d->err, sizeof d->err);
  meta(&m, "boxed_csr", 2);
  rc |= corpus_append(path, large, &m, 0, d->err, sizeof d->err);
  CHECK(rc == 0 && corpus_open(path, &c, d->err, sizeof d->err) == 0 && corpus_count(c) == 2,
        "two boxed problems appended and the file opened (%s)", d->err);
  for (int i = 0; c && i < 2; i++) {
    const struct corpus_meta *mi = corpus_meta_at(c, i);
    rc = corpus_read(c, i, &back, d->err, sizeof d->err);
    CHECK(rc == 0 && strcmp(mi->kind, "boxed") == 0 && same_boxed(i ? large : small, back),
          "%s: kind boxed, M, q, lo, hi and findex read back (%s)", mi->name, rc ? d->err : "ok");
    cp_destroy(&back);
  }
  int written = -1, left = -1;
  snprintf(dir, sizeof dir, "%s/boxed_export", d->dir);
  if (c) rc = corpus_export_siconos(c, dir, &written, &left, d->err, sizeof d->err);
  CHECK(rc == 0 && written == 0 && left == 2, "the Siconos export leaves both out (%d written, %d left out)",
        written, left);
  corpus_close(&c);
  int fd[2];
  struct corpus_stream in = {0};
  struct corpus_stream_out out = {0};
  rc = pipe(fd);
  if (rc == 0) {
    out.fd = fd[1];
    rc = corpus_stream_put(&out, large, &m, NULL) || corpus_stream_flush(&out);
    close(fd[1]);
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    rc |= corpus_stream_take(&in, fd[0], stream_copy, &back) != 1;
    close(fd[0]);
  }
  free(out.buf);
  corpus_stream_free(&in);
  CHECK(rc == 0 && same_boxed(large, back), "the capture stream carries a boxed problem with its findex");
  cp_destroy(&back);
  cp_destroy(&small);
  cp_destroy(&large);
}

int main(void)
{
  struct corpus_test d = {.dir = "/tmp/test_corpus_XXXXXX"};
  if (!mkdtemp(d.dir)) return CHECK(0, "temporary directory"), check_finish();
  snprintf(d.a, sizeof d.a, "%s/a.h5", d.dir);
  snprintf(d.b, sizeof d.b, "%s/b.h5", d.dir);
  snprintf(d.merged, sizeof d.merged, "%s/m.h5", d.dir);
  struct cp_problem *lcp = NULL, *mlcp = NULL;
  make_problems(&lcp, &mlcp);
  test_append_read(&d, lcp, mlcp);
  test_siconos_dat(&d, lcp, mlcp);
  test_merge(&d, mlcp);
  test_dead_writer(&d, lcp, mlcp);
  test_version1(&d, lcp);
  test_bad_files(&d);
  test_boxed(&d);
  cp_destroy(&lcp);
  cp_destroy(&mlcp);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", d.dir);
  if (system(cmd)) fprintf(stderr, "note: could not remove %s\n", d.dir);
  return check_finish();
}
