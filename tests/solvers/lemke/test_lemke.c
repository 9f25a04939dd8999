/* test_lemke.c — Lemke's method (solvers/lemke/lemke.c) and the mixed-LCP reduction
 * (solvers/core/mlcp_reduce.c): Murty's exponential example (2^n - 1 pivots, Murty 1978), random SPD LCPs
 * against PGS, Stewart-Trinkle box contact LCPs, ray termination on infeasible LCPs, the pivot limit, warm
 * starts (fewer pivots; singular basis falls back), degenerate LCPs (no cycling), the pivot tolerance, and a
 * mixed LCP with a known solution (and a singular equality block refused). */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "mlcp_reduce.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static struct solver *new_solver(const char *name, int max_it)
{
  struct solver *s = test_solver(name, 0.0);
  if (s) s->set.max_it = max_it;
  return s;
}

static struct solve_result run(struct solver *s, const struct cp_problem *p, double *z)
{
  struct solve_result r;
  solver_solve(s, p, z, &r);
  return r;
}

static void test_murty(void)
{
  struct solver *s = new_solver("lemke", 10000);
  for (int n = 5; n <= 12; n++) {
    struct cp_problem *p = cp_test_murty(n);
    double *z = calloc((size_t)n, sizeof *z);
    struct solve_result r = run(s, p, z);
    CHECK(r.status == SOLVE_CONVERGED && r.iterations == (1 << n) - 1,
          "murty n=%d: %s after %d pivots (expect 2^n - 1 = %d)", n, solve_status_name(r.status),
          r.iterations, (1 << n) - 1);
    free(z);
    cp_destroy(&p);
  }
  solver_destroy(&s);
}

static void test_spd_vs_pgs(void)
{
  struct solver *lemke = new_solver("lemke", 0), *pgs = new_solver("pgs", 100000);
  pgs->set.tol = 1e-12;
  const int sizes[3] = {10, 100, 500};
  for (int a = 0; a < 3; a++)
    for (unsigned long seed = 1; seed <= 3; seed++) {
      int n = sizes[a];
      struct cp_problem *p = cp_test_spd(n, seed);
      double *z = calloc((size_t)n, sizeof *z), *zp = calloc((size_t)n, sizeof *zp), diff = 0.0;
      struct solve_result r = run(lemke, p, z), rp = run(pgs, p, zp);
      for (int i = 0; i < n; i++)
        diff = fmax(diff, fabs(z[i] - zp[i]));
      CHECK(r.status == SOLVE_CONVERGED && rp.status == SOLVE_CONVERGED && diff <= 1e-6,
            "spd n=%d seed %lu: lemke %s (%d pivots, residual %.2g), pgs %s, max |z - z_pgs| = %.2g", n, seed,
            solve_status_name(r.status), r.iterations, r.residual, solve_status_name(rp.status), diff);
      free(z);
      free(zp);
      cp_destroy(&p);
    }
  solver_destroy(&lemke);
  solver_destroy(&pgs);
}

static void test_box_contact(void)
{
  struct solver *s = new_solver("lemke", 0);
  const int boxes[2] = {1, 10};
  for (int sliding = 0; sliding <= 1; sliding++)
    for (int b = 0; b < 2; b++)
      for (unsigned long seed = 1; seed <= 5; seed++) {
        struct cp_problem *p = cp_test_box_contact(boxes[b], 4, 0.5, sliding, 0.0, seed);
        double *z = calloc((size_t)p->n, sizeof *z);
        struct solve_result r = run(s, p, z);
        CHECK(r.status == SOLVE_CONVERGED, "%s (n=%d): %s after %d pivots, residual %.2g", p->name, p->n,
              solve_status_name(r.status), r.iterations, r.residual);
        free(z);
        cp_destroy(&p);
      }
  solver_destroy(&s);
}

/* Larger sliding-box LCPs that failed with smaller pivot tolerances (rounding-noise pivots started a cycle
 * or a ray) or ended with z0 ~ 1e-10 and no admissible pivot in its row. The second one ended, with blocks
 * of 50, at residual 8e-8 (tolerance 3e-8) with a negligible z0 basic and M_SS singular (SkylakeX
 * kernels), or on a false ray with z0 = 6e-8 (Haswell): the answer is recomputed from a fresh factorization
 * of the whole basis, and a ray is checked on one, so -lemke_final_solve always must reach 1e-12. */
static void test_box_contact_large(void)
{
  struct solver *s = new_solver("lemke", 0);
  const int k[2] = {4, 8};
  const unsigned long seed[2] = {2, 3};
  for (int a = 0; a < 2; a++) {
    struct cp_problem *p = cp_test_box_contact(40, k[a], 0.2, 1, 0.0, seed[a]);
    double *z = calloc((size_t)p->n, sizeof *z);
    struct solve_result r = run(s, p, z);
    CHECK(r.status == SOLVE_CONVERGED, "%s (n=%d): %s after %d pivots, residual %.2g", p->name, p->n,
          solve_status_name(r.status), r.iterations, r.residual);
    if (a ==
        1) { /* the final answer recomputed from the data: M_SS, or the whole basis when M_SS is singular */
      struct solver *sa = test_solver_with("lemke", 0.0, OPTS("-lemke_final_solve", "always"));
      memset(z, 0, (size_t)p->n * sizeof *z);
      r = run(sa, p, z);
      CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-12 * r.scale,
            "%s, -lemke_final_solve always: %s, residual %.2g (scale %.3g; %s)", p->name,
            solve_status_name(r.status), r.residual, r.scale, r.message);
      solver_destroy(&sa);
    }
    free(z);
    cp_destroy(&p);
  }
  solver_destroy(&s);
}

static struct cp_problem *dense_lcp(int n, const double *M, const double *q)
{
  struct cp_problem *p = cp_lcp_create(n);
  memcpy(p->M, M, (size_t)n * n * sizeof *M);
  memcpy(p->q, q, (size_t)n * sizeof *q);
  return p;
}

static void test_ray_and_limit(void)
{
  struct solver *s = new_solver("lemke", 0);
  /* w = -z - 1 >= 0 has no solution with z >= 0. */
  const double M1[1] = {-1}, q1[1] = {-1};
  /* M PSD, w1 + w2 = -2 for every z: infeasible, so Lemke must end on a ray (copositive-plus theory). */
  const double M2[4] = {1, -1, -1, 1}, q2[2] = {-1, -1};
  struct cp_problem *p1 = dense_lcp(1, M1, q1), *p2 = dense_lcp(2, M2, q2);
  double z[2] = {0, 0};
  struct solve_result r = run(s, p1, z);
  CHECK(r.status == SOLVE_RAY_TERMINATION, "M = [-1], q = [-1]: %s (expect ray_termination)",
        solve_status_name(r.status));
  r = run(s, p2, z);
  CHECK(r.status == SOLVE_RAY_TERMINATION, "infeasible 2x2 PSD LCP: %s (expect ray_termination)",
        solve_status_name(r.status));
  cp_destroy(&p1);
  cp_destroy(&p2);
  struct cp_problem *p = cp_test_spd(100, 11);
  double *zz = calloc(100, sizeof *zz);
  s->set.max_it = 5;
  r = run(s, p, zz);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 5 && r.no_answer,
        "-cp_max_it 5 on spd n=100: %s after %d pivots, no_answer %d (expect 1: the basis approximates "
        "nothing)",
        solve_status_name(r.status), r.iterations, r.no_answer);
  {
    struct solver *g = new_solver("pgs", 2);
    struct solve_result rg = run(g, p, zz);
    CHECK(rg.status == SOLVE_MAX_ITERATIONS && !rg.no_answer,
          "pgs after 2 sweeps: %s, no_answer %d (expect 0: its iterate is an approximate answer)",
          solve_status_name(rg.status), rg.no_answer);
    solver_destroy(&g);
  }
  s->set.max_it = 0;
  s->set.time_limit = 1e-9;
  r = run(s, p, zz);
  CHECK(r.status == SOLVE_TIME_LIMIT && r.iterations == 16,
        "-cp_time_limit 1e-9 on spd n=100: %s after %d pivots", solve_status_name(r.status), r.iterations);
  s->set.time_limit = 0.0;
  p->M[3 * 100 + 7] = NAN;
  r = run(s, p, zz);
  CHECK(r.status == SOLVE_NAN_OR_INF, "NaN in M: %s (never converged)", solve_status_name(r.status));
  free(zz);
  cp_destroy(&p);
  solver_destroy(&s);
}

static void test_warm_start(void)
{
  struct solver *s = new_solver("lemke", 0);
  int n = 300;
  struct cp_problem *p = cp_test_spd(n, 5);
  double *z = calloc((size_t)n, sizeof *z), *zw = calloc((size_t)n, sizeof *zw);
  struct solve_result cold = run(s, p, z);
  /* Perturb q: the old support is close to the new solution's, but not equal (some pivots remain). */
  for (int i = 0; i < n; i++)
    p->q[i] += 0.05 * sin(1.7 * i + 0.3);
  memcpy(zw, z, (size_t)n * sizeof *z);
  struct solve_result cold2 = run(s, p, z);
  s->set.warm_start = 1;
  struct solve_result warm = run(s, p, zw);
  CHECK(cold.status == SOLVE_CONVERGED && cold2.status == SOLVE_CONVERGED && warm.status == SOLVE_CONVERGED &&
            warm.iterations > 0 && warm.iterations < cold2.iterations,
        "warm start on perturbed spd n=%d: %d pivots vs %d cold (%s)", n, warm.iterations, cold2.iterations,
        solve_status_name(warm.status));
  /* A singular starting basis (M_SS = [1 1; 1 1]) falls back to a cold start. */
  const double M[9] = {1, 1, 0, 1, 1, 0, 0, 0, 1}, q[3] = {-1, -1, -1};
  struct cp_problem *ps = dense_lcp(3, M, q);
  double zs[3] = {1, 1, 0};
  struct solve_result r = run(s, ps, zs);
  CHECK(r.status == SOLVE_CONVERGED && strstr(r.message, "singular"),
        "warm start from a singular basis falls back cold: %s (%s)", solve_status_name(r.status), r.message);
  cp_destroy(&ps);
  free(z);
  free(zw);
  cp_destroy(&p);
  solver_destroy(&s);
}

static void test_degenerate(void)
{
  struct solver *s = new_solver("lemke", 0);
  /* Half of q exactly zero: every pivot through those rows is degenerate; an SPD M has a solution. */
  int n = 200;
  struct cp_problem *p = cp_test_spd(n, 9);
  for (int i = 0; i < n; i += 2)
    p->q[i] = 0.0;
  double *z = calloc((size_t)n, sizeof *z);
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED, "spd n=%d with q_i = 0 on even i: %s after %d pivots", n,
        solve_status_name(r.status), r.iterations);
  /* Murty's matrix with q = 0 except the last row: massively tied ratio tests. */
  struct cp_problem *pm = cp_test_murty(8);
  for (int i = 0; i < 7; i++)
    pm->q[i] = 0.0;
  r = run(s, pm, z);
  CHECK(r.status == SOLVE_CONVERGED, "degenerate Murty n=8 (q = -e_8): %s after %d pivots",
        solve_status_name(r.status), r.iterations);
  /* Egan et al. Sec. IV, case (b) of the max formulation, gamma = 100: Lemke with covering vector e
   * stops on a ray there (the paper's point); what matters here is that it terminates. */
  struct cp_problem *pe = cp_test_egan_max(-1.5, -0.5, 100.0);
  double ze[10] = {0};
  r = run(s, pe, ze);
  printf("# egan max case b (gamma 100): lemke %s after %d pivots, residual %.3g\n",
         solve_status_name(r.status), r.iterations, r.residual);
  CHECK(r.iterations < 1000 && r.status != SOLVE_MAX_ITERATIONS,
        "egan max case b terminates: %s after %d pivots", solve_status_name(r.status), r.iterations);
  cp_destroy(&pe);
  cp_destroy(&pm);
  free(z);
  cp_destroy(&p);
  solver_destroy(&s);
}

/* After the initial pivot (q tied, row 1 taken, w_0 = 0), z_1 enters with column (M11 - M01, M11) =
 * (2^-50, 1): the tiny entry is at the degenerate row, so it wins any ratio test that accepts it. */
static void test_pivot_tol(void)
{
  const double M[4] = {1, 1 - ldexp(1.0, -50), 0, 1}, q[2] = {-1, -1};
  struct cp_problem *p = dense_lcp(2, M, q);
  double z[2] = {0, 0};
  struct solver *s = new_solver("lemke", 0);
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == 1,
        "default -lemke_pivot_tol rejects a 2^-50 pivot: %s after %d pivots (expect 1)",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  s = test_solver_with("lemke", 0.0, OPTS("-lemke_pivot_tol", "0"));
  r = run(s, p, z);
  CHECK(r.iterations > 1, "-lemke_pivot_tol 0 takes the tiny pivot: %s after %d pivots",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  cp_destroy(&p);
}

static void test_mlcp(void)
{
  /* u in R^2 free, v in R^3: pick u*, v* >= 0, w* >= 0 with v*'w* = 0 and build a, b from them. */
  const int ne = 2, m = 3, n = ne + m;
  const double Mfull[25] = {2.3,  0.7,  1.1, -0.4, 0.2,  /* A | C */
                            0.7,  3.1,  0.3, 0.9,  -0.6, /* */
                            -1.1, -0.3, 2.9, 0.5,  0.4,  /* D | B */
                            0.4,  -0.9, 0.5, 3.3,  0.8,  /* */
                            -0.2, 0.6,  0.4, 0.8,  2.7};
  const double ustar[2] = {0.37, -0.81}, vstar[3] = {1.3, 0.0, 0.45}, wstar[3] = {0.0, 0.62, 0.0};
  struct cp_problem *p = cp_mlcp_create(ne, m);
  memcpy(p->M, Mfull, sizeof Mfull);
  double zstar[5] = {ustar[0], ustar[1], vstar[0], vstar[1], vstar[2]};
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++)
      s += Mfull[i * n + j] * zstar[j];
    p->q[i] = (i < ne ? 0.0 : wstar[i - ne]) - s;
  }
  struct solver *s = new_solver("lemke", 0);
  double z[5] = {0};
  struct solve_result r = run(s, p, z);
  double err = 0.0;
  for (int i = 0; i < n; i++)
    err = fmax(err, fabs(z[i] - zstar[i]));
  CHECK(r.status == SOLVE_CONVERGED && err < 1e-12, "mixed LCP via mlcp_reduce: %s, max |z - z*| = %.2g",
        solve_status_name(r.status), err);
  /* The reduction on its own: M' v* + q' = w*. */
  struct cp_problem *lcp = NULL;
  struct mlcp_reduction *red = NULL;
  char msg[128];
  int err_code = mlcp_reduce(p, &lcp, &red, msg, sizeof msg);
  double res = 0.0;
  for (int i = 0; err_code == 0 && i < m; i++) {
    double w = lcp->q[i];
    for (int j = 0; j < m; j++)
      w += lcp->M[i * m + j] * vstar[j];
    res = fmax(res, fabs(w - wstar[i]));
  }
  CHECK(err_code == 0 && lcp->n == m && res < 1e-13, "mlcp_reduce: M' v* + q' = w* (error %.2g)", res);
  cp_destroy(&lcp);
  mlcp_reduction_destroy(&red);
  /* Only equalities (m = 0): u = -A^-1 a. */
  struct cp_problem *pe = cp_mlcp_create(2, 0);
  pe->M[0] = 2.0;
  pe->M[1] = 1.0;
  pe->M[2] = 1.0;
  pe->M[3] = 3.0;
  pe->q[0] = -3.0;
  pe->q[1] = -4.0;
  double ze[2] = {0, 0};
  r = run(s, pe, ze);
  CHECK(r.status == SOLVE_CONVERGED && fabs(ze[0] - 1.0) < 1e-14 && fabs(ze[1] - 1.0) < 1e-14,
        "mixed LCP with no complementary rows: %s, u = (%g, %g), expect (1, 1)", solve_status_name(r.status),
        ze[0], ze[1]);
  cp_destroy(&pe);
  /* A singular equality block: not applicable, with a message. */
  p->M[0 * n + 0] = 1.0;
  p->M[0 * n + 1] = 2.0;
  p->M[1 * n + 0] = 2.0;
  p->M[1 * n + 1] = 4.0;
  r = run(s, p, z);
  CHECK(r.status == SOLVE_NOT_APPLICABLE && strstr(r.message, "singular"),
        "mixed LCP with singular A: %s (%s)", solve_status_name(r.status), r.message);
  solver_destroy(&s);
  cp_destroy(&p);
}

static void test_cover(void)
{
  struct solver *s = test_solver_with("lemke", 0.0, OPTS("-lemke_cover", "qscaled"));
  struct cp_problem *p = cp_test_spd(100, 21), *pb = cp_test_box_contact(10, 4, 0.5, 1, 0.0, 3);
  double *z = calloc((size_t)pb->n, sizeof *z);
  struct solve_result r = run(s, p, z), rb = run(s, pb, z);
  CHECK(r.status == SOLVE_CONVERGED && rb.status == SOLVE_CONVERGED,
        "-lemke_cover qscaled: spd n=100 %s (%d pivots), sliding boxes %s (%d pivots)",
        solve_status_name(r.status), r.iterations, solve_status_name(rb.status), rb.iterations);
  struct solver *bad = NULL;
  char msg[256] = "";
  CHECK(solver_create("lemke", &bad, NULL, 0) == 0 &&
            solver_set_option(bad, "-lemke_cover", "nonsense", msg, sizeof msg) != 0 &&
            strstr(msg, "-lemke_cover"),
        "-lemke_cover nonsense is refused (%s)", msg);
  solver_destroy(&bad);
  free(z);
  cp_destroy(&p);
  cp_destroy(&pb);
  solver_destroy(&s);
}

/* The held-back updates only reorder floating-point sums: block sizes 1, 7 and 32 follow one pivot path. */
/* Solves p by lemke once per value of option opt (at most 3): pivots (-1 unless converged) into its, the
 * residuals into res, and the largest difference of each answer from the first one's into *diff (relative to
 * max(1, |z_i|) when rel). */
static void run_settings(const struct cp_problem *p, const char *opt, const char *const *values, int nv,
                         int rel, int *its, double *res, double *diff)
{
  double *z[3];
  *diff = 0.0;
  for (int b = 0; b < nv; b++) {
    struct solver *s = test_solver_with("lemke", 0.0, OPTS(opt, values[b]));
    z[b] = calloc((size_t)p->n, sizeof *z[b]);
    struct solve_result r = run(s, p, z[b]);
    its[b] = r.status == SOLVE_CONVERGED ? r.iterations : -1;
    res[b] = r.residual;
    solver_destroy(&s);
  }
  for (int b = 1; b < nv; b++)
    for (int i = 0; i < p->n; i++)
      *diff = fmax(*diff, fabs(z[0][i] - z[b][i]) / (rel ? fmax(1.0, fabs(z[0][i])) : 1.0));
  for (int b = 0; b < nv; b++)
    free(z[b]);
}

/* Siconos' lcp_tobenna (40 x 40, integer data, massively degenerate) into *p; 1 (a skip said) when the
 * shared data is absent. */
static int read_tobenna(struct cp_problem **p)
{
  const char *dir = check_shared_data();
  char path[512], err[256];
  if (dir) snprintf(path, sizeof path, "%s/siconos/lcp/lcp_tobenna.dat", dir);
  if (!dir || cp_read_file(path, CP_FILE_SICONOS_LCP, p, err, sizeof err) != 0) {
    check_skip("lcp_tobenna.dat: shared data absent");
    return 1;
  }
  return 0;
}

static void test_block_sizes(void)
{
  struct cp_problem *probs[2] = {cp_test_spd(200, 17), cp_test_box_contact(10, 4, 0.5, 1, 0.0, 8)};
  const char *const blocks[3] = {"1", "7", "32"};
  for (int a = 0; a < 2; a++) {
    int its[3];
    double res[3], diff;
    run_settings(probs[a], "-lemke_block", blocks, 3, 0, its, res, &diff);
    CHECK(its[0] > 0 && its[0] == its[1] && its[0] == its[2] && diff < 1e-10,
          "%s: -lemke_block 1/7/32 converge in %d/%d/%d pivots, max |dz| %.2g", probs[a]->name, its[0],
          its[1], its[2], diff);
    cp_destroy(&probs[a]);
  }
}

/* The small-problem path (-lemke_small_n, lemke_kernels.h: plain loops instead of BLAS calls) against the
 * BLAS path on the same problems: the same pivots and the same answer up to rounding, on an SPD LCP, a
 * sliding-box contact LCP with its lexicographic ties, and Siconos' lcp_tobenna (massively degenerate: its
 * exact lexicographic path of 126 pivots must survive the other roundings). */
static void test_small_path(void)
{
  struct cp_problem *probs[3] = {cp_test_spd(12, 5), cp_test_box_contact(2, 4, 0.5, 1, 0.0, 3), NULL};
  const char *const settings[2] = {"0", "100000"};
  read_tobenna(&probs[2]);
  for (int a = 0; a < 3 && probs[a]; a++) {
    int its[2];
    double res[2], diff;
    run_settings(probs[a], "-lemke_small_n", settings, 2, 1, its, res, &diff);
    CHECK(
        its[0] > 0 && its[0] == its[1] && diff < 1e-10,
        "%s (n = %d): BLAS / plain loops converge in %d / %d pivots, max relative |dz| %.2g, residual %.2g / "
        "%.2g",
        probs[a]->name, probs[a]->n, its[0], its[1], diff, res[0], res[1]);
    cp_destroy(&probs[a]);
  }
}

/* Siconos' lcp_tobenna: exact rational arithmetic with the same lexicographic rule converges after 126
 * pivots; rounding must not decide its ties. */
static void test_tobenna(void)
{
  struct cp_problem *p = NULL;
  if (read_tobenna(&p)) return;
  struct solver *s = new_solver("lemke", 0);
  double *z = calloc((size_t)p->n, sizeof *z);
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == 126,
        "lcp_tobenna: %s after %d pivots (exact lexicographic path: 126), residual %.2g",
        solve_status_name(r.status), r.iterations, r.residual);
  free(z);
  solver_destroy(&s);
  cp_destroy(&p);
}

/* The triangle drop's Stewart-Trinkle LCP with two nearly identical contact columns: the blocked updates
 * drift enough to pick a wrong pivot (the basis ends with residual 1.3e-4 at scale 10.4); the drift check
 * refactorizes the basis from the data and the run ends on the exact solution. */
static void test_triangle_drop_drift(void)
{
  const char *path = "tests/data/lemke_triangle_drop_stewart_trinkle_h0.003.txt";
  char err[256];
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_PLAIN, &p, err, sizeof err) != 0) {
    CHECK(0, "%s: %s", path, err);
    return;
  }
  struct solver *s = new_solver("lemke", 0);
  double z[8] = {0};
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-8 * r.scale && r.iterations <= 16,
        "triangle drop LCP: %s after %d pivots, residual %.2g (tol x scale %.2g); %s",
        solve_status_name(r.status), r.iterations, r.residual, 1e-8 * r.scale, r.message);
  solver_destroy(&s);
  /* the final solve from a fresh LU of M_SS with refinement, forced, keeps the exact answer */
  s = test_solver_with("lemke", 0.0, OPTS("-lemke_final_solve", "always"));
  memset(z, 0, sizeof z);
  r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-12 * r.scale,
        "triangle drop LCP, -lemke_final_solve always: %s, residual %.2g", solve_status_name(r.status),
        r.residual);
  solver_destroy(&s);
  cp_destroy(&p);
}

/* A nonconvex corner of Egan et al.'s max formulation (block_hole, captured): M is not copositive
 * (x >= 0 on rows 8 and 11 gives x^T M x < 0), so Lemke may end on a secondary ray although the LCP has a
 * solution (enum finds one): the ray is reported as such, with the witness, not as a proof of infeasibility.
 */
static void test_not_copositive_ray(void)
{
  const char *path = "tests/data/lemke_nonconvex_max_ray.dat";
  char err[256];
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_SICONOS_LCP, &p, err, sizeof err) != 0) {
    CHECK(0, "%s: %s", path, err);
    return;
  }
  struct solver *s = new_solver("lemke", 0), *e = new_solver("enum", 0);
  double z[12] = {0};
  struct solve_result r = run(s, p, z), re = run(e, p, z);
  CHECK(r.status == SOLVE_RAY_TERMINATION && strstr(r.message, "not copositive") &&
            strstr(r.message, "rows 8, 11") && re.status == SOLVE_CONVERGED,
        "nonconvex corner LCP: lemke %s (%s); enum %s", solve_status_name(r.status), r.message,
        solve_status_name(re.status));
  solver_destroy(&s);
  solver_destroy(&e);
  cp_destroy(&p);
}

/* SPD n = 300 with the drift checked at every pivot: no refactorization is needed (well-conditioned), the
 * answer matches the default run's pivots. */
static void test_drift_every_pivot(void)
{
  struct cp_problem *p = cp_test_spd(300, 7);
  double *z = calloc(300, sizeof *z);
  struct solver *s = new_solver("lemke", 0);
  struct solve_result r0 = run(s, p, z);
  solver_destroy(&s);
  s = test_solver_with("lemke", 0.0, OPTS("-lemke_check_every", "1"));
  memset(z, 0, 300 * sizeof *z);
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == r0.iterations && strstr(r.message, "refactor") == NULL,
        "spd300 checked every pivot: %s after %d pivots (default run %d), message '%s'",
        solve_status_name(r.status), r.iterations, r0.iterations, r.message);
  solver_destroy(&s);
  free(z);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_murty();
  test_spd_vs_pgs();
  test_box_contact();
  test_box_contact_large();
  test_ray_and_limit();
  test_warm_start();
  test_degenerate();
  test_pivot_tol();
  test_mlcp();
  test_cover();
  test_block_sizes();
  test_small_path();
  test_tobenna();
  test_triangle_drop_drift();
  test_not_copositive_ray();
  test_drift_every_pivot();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
