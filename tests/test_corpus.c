/* test_corpus.c — the HDF5 problem corpus (corpus.h): an LCP stored dense and a sparse MLCP stored as CSR
 * read back bit for bit (M, q, bounds with their infinities) with their metadata; the cap stops appends;
 * a duplicate name is refused; merge joins two files (renaming a clash); the Siconos .dat writer's files
 * read back through cp_io's Siconos reader to the same data; another schema version, a truncated file and
 * a file that is not HDF5 are refused with status 2 and a message. */
#include "check.h"
#include "corpus.h"
#include "cp_io.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
  char dir[] = "/tmp/test_corpus_XXXXXX", path[256], path2[256], merged[256], dat[256], err[512];
  if (!mkdtemp(dir)) return CHECK(0, "temporary directory"), check_finish();
  snprintf(path, sizeof path, "%s/a.h5", dir);
  snprintf(path2, sizeof path2, "%s/b.h5", dir);
  snprintf(merged, sizeof merged, "%s/m.h5", dir);

  /* a dense LCP (every entry nonzero) and a sparse MLCP (CSR) */
  struct cp_problem *lcp = cp_lcp_create(3), *mlcp = cp_mlcp_create(2, 6);
  for (int i = 0; i < 9; i++)
    lcp->M[i] = 1.0 + i / 7.0;
  for (int i = 0; i < 3; i++)
    lcp->q[i] = -1.0 + i * M_PI;
  for (int i = 0; i < 8; i++) {
    mlcp->M[i * 8 + i] = 2.0 + i;
    mlcp->q[i] = i % 2 ? -0.1 * i : 0.3;
  }
  mlcp->M[1] = -1.0 / 3.0;
  struct corpus_meta m;
  meta(&m, "incline_task7_step1", 1);
  CHECK(corpus_append(path, lcp, &m, 0, err, sizeof err) == 0, "append a dense LCP (%s)", err);
  meta(&m, "incline_task7_step2", 2);
  CHECK(corpus_append(path, mlcp, &m, 0, err, sizeof err) == 0, "append a sparse MLCP (%s)", err);
  CHECK(corpus_append(path, mlcp, &m, 0, err, sizeof err) == 1 && strstr(err, "already"),
        "a duplicate name is refused: %s", err);
  meta(&m, "incline_task7_step3", 3);
  CHECK(corpus_append(path, mlcp, &m, 2, err, sizeof err) == 3, "the cap (2 problems) stops the third");

  struct corpus *c = NULL;
  CHECK(corpus_open(path, &c, err, sizeof err) == 0 && corpus_count(c) == 2, "open: 2 problems (%s)", err);
  if (c) {
    struct cp_problem *p = NULL;
    int i = corpus_find(c, "incline_task7_step1"), j = corpus_find(c, "incline_task7_step2");
    CHECK(i >= 0 && corpus_read(c, i, &p, err, sizeof err) == 0 && same(p, lcp), "the LCP reads back");
    const struct corpus_meta *r = corpus_meta_at(c, i);
    CHECK(!strcmp(r->driver, "incline") && !strcmp(r->formulation, "stewart_trinkle") && r->h == 0.01 &&
              r->step == 1 && r->task_id == 7 && r->rows[1] == 4 && !strcmp(r->kind, "lcp") && r->captured,
          "its metadata reads back");
    cp_destroy(&p);
    CHECK(j >= 0 && corpus_read(c, j, &p, err, sizeof err) == 0 && same(p, mlcp) && isinf(p->lo[0]),
          "the MLCP (CSR, free rows at -inf) reads back");
    cp_destroy(&p);
    corpus_close(&c);
  }

  /* Siconos .dat: written, then read by cp_io's reader */
  struct cp_problem *back = NULL;
  snprintf(dat, sizeof dat, "%s/x_lcp.dat", dir);
  CHECK(corpus_write_siconos(dat, lcp, err, sizeof err) == 0 &&
            cp_read_file(dat, CP_FILE_SICONOS_LCP, &back, err, sizeof err) == 0 && same(back, lcp),
        "Siconos LCP .dat round trip (%s)", err);
  cp_destroy(&back);
  snprintf(dat, sizeof dat, "%s/x_mlcp.dat", dir);
  CHECK(corpus_write_siconos(dat, mlcp, err, sizeof err) == 0 &&
            cp_read_file(dat, CP_FILE_SICONOS_MLCP, &back, err, sizeof err) == 0 && same(back, mlcp),
        "Siconos MLCP .dat round trip (%s)", err);
  cp_destroy(&back);

  /* merge: a second file with a clashing name */
  meta(&m, "incline_task7_step1", 1);
  corpus_append(path2, mlcp, &m, 0, err, sizeof err);
  const char *in[2] = {path, path2};
  CHECK(corpus_merge(merged, in, 2, err, sizeof err) == 0, "merge two files (%s)", err);
  CHECK(corpus_open(merged, &c, err, sizeof err) == 0 && corpus_count(c) == 3 &&
            corpus_find(c, "incline_task7_step1_in1") >= 0,
        "the merged file holds 3 problems, the clash renamed");
  corpus_close(&c);

  /* bad input: another schema version, truncated, not HDF5 */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(path2, H5F_ACC_RDWR, H5P_DEFAULT);
  long v = 99;
  hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_LONG, &v);
  H5Aclose(a);
  H5Fclose(f);
  CHECK(corpus_open(path2, &c, err, sizeof err) == 2 && strstr(err, "schema version 99"),
        "another schema version: %s", err);
  FILE *fp = fopen(path, "r+");
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fclose(fp);
  CHECK(truncate(path, size / 2) == 0 && corpus_open(path, &c, err, sizeof err) == 2, "truncated: %s", err);
  fp = fopen(path2, "w");
  fputs("not hdf5\n", fp);
  fclose(fp);
  CHECK(corpus_open(path2, &c, err, sizeof err) == 2, "not HDF5: %s", err);
  CHECK(corpus_open("/nonexistent/x.h5", &c, err, sizeof err) == 2, "missing: %s", err);

  cp_destroy(&lcp);
  cp_destroy(&mlcp);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "note: could not remove %s\n", dir);
  return check_finish();
}
