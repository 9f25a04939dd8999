/* test_siconos.c — the Siconos numerics backend (solvers/siconos/siconos.c): every siconos_* solver on a 2x2
 * SPD LCP with known solution and on a random SPD LCP (n = 30) against our PGS; Murty's matrix (n = 6) with
 * lexicographic Lemke and the pivot count Siconos reports; NaN in M never converged; siconos_enum solves
 * the Egan et al. Fig. 3(b) degenerate LCP; mixed LCPs refused; and, when ../shared/data is present, every
 * Siconos LCP data file loads and runs through every siconos_* solver (a table of the statuses). Whether
 * the harness's status agrees with its checker is not re-checked here: that would recompute solver.c;
 * tests/solvers/core/test_lying_solver.c gives the harness wrong answers instead.
 * Skips cleanly when the backend was not built (no Siconos headers). */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <dirent.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const siconos_solvers[] = {"siconos_lemke",        "siconos_pgs",  "siconos_newton_fb",
                                              "siconos_newton_minfb", "siconos_enum", NULL};

static enum solve_status run(const char *name, const struct cp_problem *p, double tol, double *z,
                             struct solve_result *r)
{
  struct solver *s = NULL;
  memset(r, 0, sizeof *r);
  if (solver_create(name, &s, NULL, 0) != 0) {
    solver_destroy(&s);
    r->status = SOLVE_NUMERICAL_FAILURE;
    return r->status;
  }
  s->set.tol = tol;
  solver_solve(s, p, z, r);
  solver_destroy(&s);
  return r->status;
}

static void test_small(void)
{
  /* M = [2 1; 1 2], q = (-5, -6): z = (4/3, 7/3), w = 0. */
  struct cp_problem *p = cp_lcp_create(2);
  const double M[4] = {2, 1, 1, 2}, zs[2] = {4.0 / 3.0, 7.0 / 3.0};
  memcpy(p->M, M, sizeof M);
  p->q[0] = -5;
  p->q[1] = -6;
  double z[2] = {0};
  struct solve_result r;
  for (const char *const *name = siconos_solvers; *name; name++) {
    run(*name, p, 1e-12, z, &r);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zs, 2) <= 1e-9,
          "2x2 spd: %s finds (4/3, 7/3) (%s, diff %.2g)", *name, solve_status_name(r.status),
          max_abs_diff(z, zs, 2));
  }
  /* A nonsymmetric 2x2 P-matrix with one active and one inactive component: z = (0.6, 0), w2 = 0.9. */
  const double N[4] = {2.5, -1.0, 1.5, 3.0};
  memcpy(p->M, N, sizeof N);
  p->q[0] = -1.5;
  p->q[1] = 0.0;
  const double zn[2] = {0.6, 0.0};
  for (const char *const *name = siconos_solvers; *name; name++) {
    run(*name, p, 1e-12, z, &r);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zn, 2) <= 1e-9,
          "2x2 nonsymmetric: %s finds (0.6, 0) (%s, diff %.2g)", *name, solve_status_name(r.status),
          max_abs_diff(z, zn, 2));
  }
  cp_destroy(&p);
}

static void test_spd30(void)
{
  struct cp_problem *p = cp_test_spd(30, 31337);
  double zref[30] = {0}, z[30] = {0};
  struct solve_result r;
  run("pgs", p, 1e-12, zref, &r);
  for (const char *const *name = siconos_solvers; *name; name++) {
    run(*name, p, 1e-10, z, &r);
    if (strcmp(*name, "siconos_enum") == 0) {
      CHECK(r.status == SOLVE_NOT_APPLICABLE, "spd n=30: siconos_enum refuses n above its limit (%s)",
            solve_status_name(r.status));
      continue;
    }
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zref, 30) <= 1e-6,
          "spd n=30: %s converges and agrees with pgs (%s, %d its, diff %.2g)", *name,
          solve_status_name(r.status), r.iterations, max_abs_diff(z, zref, 30));
  }
  cp_destroy(&p);
}

static void test_murty(void)
{
  struct cp_problem *p = cp_test_murty(6);
  double z[6] = {0};
  struct solve_result r;
  run("siconos_lemke", p, 1e-10, z, &r);
  /* Siconos does not count the first pivot (the artificial variable entering); its count is the same
   * as our lemke's: 2^n - 1. */
  CHECK(r.status == SOLVE_CONVERGED, "murty n=6: siconos_lemke converges (%s)", solve_status_name(r.status));
  CHECK(r.iterations == 63, "murty n=6: siconos_lemke reports 2^6 - 1 = 63 pivots (got %d)", r.iterations);
  cp_destroy(&p);
}

static void test_nan_and_kinds(void)
{
  struct cp_problem *p = cp_test_spd(5, 9);
  p->M[7] = NAN;
  double z[5] = {0};
  struct solve_result r;
  for (const char *const *name = siconos_solvers; *name; name++) {
    run(*name, p, 1e-8, z, &r);
    CHECK(r.status != SOLVE_CONVERGED, "NaN in M: %s never converged (%s)", *name,
          solve_status_name(r.status));
  }
  cp_destroy(&p);
  p = cp_mlcp_create(1, 1);
  p->M[0] = p->M[3] = 1.0;
  p->q[0] = -1.0;
  run("siconos_lemke", p, 1e-8, z, &r);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "mixed LCP: siconos_lemke says not_applicable (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
}

static void test_egan(void)
{
  struct cp_problem *p = cp_test_egan_max(-1.5, -0.5, 100.0);
  double z[10] = {0};
  struct solve_result r;
  run("siconos_enum", p, 1e-8, z, &r);
  CHECK(r.status == SOLVE_CONVERGED, "egan fig3b: siconos_enum finds a solution (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
}

/* The peer suite's LCP files: every file loads and runs through every siconos_* solver; prints a table. */
static void test_shared_files(void)
{
  const char *data = check_shared_data();
  char dir[512];
  if (!data) {
    check_skip("Siconos LCP files: shared data absent");
    return;
  }
  snprintf(dir, sizeof dir, "%s/siconos/lcp", data);
  DIR *dp = opendir(dir);
  if (!dp) {
    check_skip("Siconos LCP files: %s absent", dir);
    return;
  }
  struct dirent *e;
  int files = 0;
  while ((e = readdir(dp))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".dat") != 0) continue;
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct cp_problem *p = NULL;
    if (cp_read_file(path, CP_FILE_AUTO, &p, err, sizeof err) != 0) {
      CHECK(0, "siconos file %s loads (%s)", e->d_name, err);
      continue;
    }
    files++;
    double *z = malloc(((size_t)p->n > 0 ? (size_t)p->n : 1) * sizeof *z);
    printf("# %-36s n=%-4d", e->d_name, p->n);
    for (const char *const *name = siconos_solvers; *name; name++) {
      struct solve_result r;
      run(*name, p, 1e-8, z, &r);
      printf(" %s:%s", *name + 8, solve_status_name(r.status));
    }
    printf("\n");
    free(z);
    cp_destroy(&p);
  }
  closedir(dp);
  CHECK(files > 0, "found %d Siconos LCP files in %s", files, dir);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find("siconos_lemke")) {
    check_skip("the Siconos backend is not built (no Siconos numerics headers)");
  } else {
    test_small();
    test_spd30();
    test_murty();
    test_nan_and_kinds();
    test_egan();
    test_shared_files();
  }
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
