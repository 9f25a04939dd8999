/* test_pgs_csr.c — pgs / psor on compressed rows (solvers/splitting/): on a sparse SPD LCP (tridiagonal, a
 * few long-range couplings) and a sparse mixed LCP, the compressed rows give the dense rows' answer and the
 * same number of sweeps; auto picks compressed rows below -pgs_csr_density and dense rows above it (the dense
 * path is the one the baselines were made with); -cp_max_it is honoured on both. */
#include "check.h"
#include "cp.h"
#include "solver.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* M = tridiag(-1, 4, -1) plus 0.5 couplings between i and i + 7; q alternating in sign, non-round. */
static struct cp_problem *sparse_lcp(int n, int n_eq)
{
  struct cp_problem *p = n_eq > 0 ? cp_mlcp_create(n_eq, n - n_eq) : cp_lcp_create(n);
  for (int i = 0; i < n; i++) {
    p->M[(size_t)i * n + i] = 4.0 + 0.01 * i;
    if (i + 1 < n) p->M[(size_t)i * n + i + 1] = p->M[(size_t)(i + 1) * n + i] = -1.0;
    if (i + 7 < n) p->M[(size_t)i * n + i + 7] = p->M[(size_t)(i + 7) * n + i] = 0.5;
    p->q[i] = (i % 3 == 0 ? 1.3 : -0.7) * (1.0 + 0.1 * i);
  }
  return p;
}

static void run_pair(const char *name, struct cp_problem *p, const char *density)
{
  int n = p->n;
  double *zd = calloc((size_t)n, sizeof *zd), *zc = calloc((size_t)n, sizeof *zc);
  char storage[64], dens[64];
  snprintf(storage, sizeof storage, "-%s_storage", name);
  snprintf(dens, sizeof dens, "-%s_csr_density", name);
  struct solver *d = test_solver_with(name, 1e-10, OPTS(storage, "dense"));
  struct solver *c = test_solver_with(name, 1e-10, OPTS(dens, density));
  struct solve_result rd, rc;
  solver_solve(d, p, zd, &rd);
  solver_solve(c, p, zc, &rc);
  CHECK(rd.status == SOLVE_CONVERGED && rc.status == SOLVE_CONVERGED &&
            abs(rd.iterations - rc.iterations) <= 1,
        "%s n=%d (%s): dense %s in %d sweeps, auto %s in %d", name, n, cp_kind_name(p->kind),
        solve_status_name(rd.status), rd.iterations, solve_status_name(rc.status), rc.iterations);
  CHECK_CLOSE(max_abs_diff(zd, zc, n), 0.0, 1e-9, "%s n=%d: compressed rows' z = dense rows' z", name, n);
  char view[512] = "";
  FILE *f = fmemopen(view, sizeof view - 1, "w");
  solver_view(c, f);
  fclose(f);
  int want_csr = strcmp(density, "0.25") == 0;
  CHECK(want_csr == (strstr(view, "rows: csr") != NULL), "%s: auto with csr_density %s picks %s rows", name,
        density, want_csr ? "compressed" : "dense");
  solver_destroy(&d);
  solver_destroy(&c);
  free(zd);
  free(zc);
}

static void test_limit(void)
{
  struct cp_problem *p = sparse_lcp(60, 0);
  double z[60];
  struct solver *s = test_solver_with("pgs", 1e-14, OPTS("-cp_max_it", "4", "-pgs_storage", "csr"));
  struct solve_result r;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 4, "pgs csr -cp_max_it 4: %s after %d",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  struct cp_problem *p = sparse_lcp(80, 0), *m = sparse_lcp(50, 6);
  run_pair("pgs", p, "0.25");
  run_pair("psor", p, "0.25");
  run_pair("pgs", m, "0.25");
  run_pair("pgs", p, "0.001");
  cp_destroy(&p);
  cp_destroy(&m);
  test_limit();
  test_limit();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
