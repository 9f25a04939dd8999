/* test_dantzig.c — the principal pivoting method (solvers/pivoting/): random SPD LCPs against lemke (the
 * solution is unique), a mixed LCP with a saddle-point matrix (the robot arm's form) with a known solution,
 * two-sided boxes with lo > 0 and hi < 0, the friction index through the kernel (the final boxes
 * -mu z_k <= z_i <= mu z_k honoured with the right signs of w), the workspace reused for a larger problem,
 * and the statuses: not_applicable on a nonsymmetric M with a zero diagonal, ray_termination, the pivot
 * limit; nonsymmetric positive definite M (P-matrices: the LDU factor) against lemke, on LCPs and boxes; the
 * factor's solves (blocked four rows / columns at a time) against M_CC at every size 1..13 and after
 * removals, symmetric (LDL^T) and not (LDU). */
#include "check.h"
#include "cp.h"
#include "pivoting.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>

static struct solve_result run(struct solver *s, const struct cp_problem *p, double *z)
{
  struct solve_result r;
  solver_solve(s, p, z, &r);
  return r;
}

/* dantzig and lemke on p (one solution): dantzig converged to rounding, with lemke's z; labelled what. */
static void check_against_lemke(struct solver *d, struct solver *l, struct cp_problem *p, const char *what)
{
  int n = p->n;
  double *zd = calloc((size_t)n, sizeof *zd), *zl = calloc((size_t)n, sizeof *zl);
  struct solve_result rd = run(d, p, zd), rl = run(l, p, zl);
  CHECK(rd.status == SOLVE_CONVERGED && rl.status == SOLVE_CONVERGED && rd.residual <= 1e-12 * rd.scale,
        "%s: dantzig %s in %d pivots, residual %.2g (%s)", what, solve_status_name(rd.status), rd.iterations,
        rd.residual, rd.message);
  CHECK_CLOSE(max_abs_diff(zd, zl, n), 0.0, 1e-9, "%s: dantzig's z = lemke's (unique solution)", what);
  free(zd);
  free(zl);
  cp_destroy(&p);
}

static void test_spd_vs_lemke(void)
{
  struct solver *d = test_solver("dantzig", 1e-10), *l = test_solver("lemke", 1e-10);
  static const int sizes[] = {1, 3, 10, 37, 120, 9};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    char what[32];
    snprintf(what, sizeof what, "spd%d", sizes[k]);
    check_against_lemke(d, l, cp_test_spd(sizes[k], 7 + k), what);
  }
  solver_destroy(&d);
  solver_destroy(&l);
}

/* An SPD LCP plus a skew-symmetric part K (K_ij = -K_ji, entries up to the diagonal's mean in size): M is
 * positive definite but not symmetric (x^T M x = x^T S x), hence a P-matrix: one solution. */
static struct cp_problem *nonsymmetric_pd(int n, unsigned long seed)
{
  struct cp_problem *p = cp_test_spd(n, seed);
  double mean = 0.0;
  for (int i = 0; i < n; i++)
    mean += p->M[(size_t)i * n + i] / n;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double k = mean * sin(1.7 * i + 0.9 * j + (double)seed);
      p->M[(size_t)i * n + j] += k;
      p->M[(size_t)j * n + i] -= k;
    }
  return p;
}

/* The LDU path (Cottle-Pang-Stone Sec. 4.5 for P-matrices): the unique solution, as lemke finds it, on LCPs
 * and, as fb_newton finds it, on boxes (the lower bounds at -1, every third upper bound at 0.5, every fifth
 * row free). */
static void test_nonsymmetric_vs_lemke(void)
{
  struct solver *d = test_solver("dantzig", 1e-10), *l = test_solver("lemke", 1e-10);
  struct solver *fb = test_solver("fb_newton", 1e-10);
  static const int sizes[] = {1, 3, 10, 37, 120, 9};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    char what[48];
    snprintf(what, sizeof what, "nonsymmetric PD n = %d", sizes[k]);
    check_against_lemke(d, l, nonsymmetric_pd(sizes[k], 11 + k), what);
  }
  int n = 30;
  struct cp_problem *p = nonsymmetric_pd(n, 4), *b = cp_box_create(n);
  for (int i = 0; i < n * n; i++)
    b->M[i] = p->M[i];
  for (int i = 0; i < n; i++) {
    b->q[i] = p->q[i];
    b->lo[i] = i % 5 == 1 ? -INFINITY : -1.0; /* free rows: the LDU path's free block at once */
    b->hi[i] = i % 5 == 1 ? INFINITY : (i % 3 == 0 ? 0.5 : INFINITY);
  }
  double zd[30] = {0}, zp[30] = {0};
  struct solve_result rd = run(d, b, zd), rp = run(fb, b, zp);
  CHECK(rd.status == SOLVE_CONVERGED && rp.status == SOLVE_CONVERGED && max_abs_diff(zd, zp, n) <= 1e-7,
        "nonsymmetric PD box MCP n = 30: dantzig %s (%d pivots), fb_newton %s, |z_d - z_fb| = %.2g",
        solve_status_name(rd.status), rd.iterations, solve_status_name(rp.status), max_abs_diff(zd, zp, n));
  cp_destroy(&p);
  cp_destroy(&b);
  solver_destroy(&d);
  solver_destroy(&l);
  solver_destroy(&fb);
}

/* M = [A C; C^T B] with A = diag(5, 5.125), C = -A, B = diag(10, 10.25): u free, v >= 0. With q = (0, 0;
 * -0.0392, 0.01): v_1 = 0.0392 / (10 - 5) = 0.00784, u_1 = v_1, v_2 = 0 (its w = 0.01 > 0), u_2 = 0. */
static void test_mlcp_saddle(void)
{
  struct cp_problem *p = cp_mlcp_create(2, 2);
  static const double M[16] = {5, 0, -5, 0, 0, 5.125, 0, -5.125, -5, 0, 10, 0, 0, -5.125, 0, 10.25};
  for (int i = 0; i < 16; i++)
    p->M[i] = M[i];
  p->q[2] = -0.0392, p->q[3] = 0.01;
  struct solver *d = test_solver("dantzig", 1e-12);
  double z[4];
  struct solve_result r = run(d, p, z);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == 1,
        "saddle mixed LCP: %s, %d pivots (free block at once, v_1)", solve_status_name(r.status),
        r.iterations);
  CHECK(fabs(z[2] - 0.00784) < 1e-14 && fabs(z[0] - 0.00784) < 1e-14 && z[3] == 0.0 && fabs(z[1]) < 1e-15,
        "saddle mixed LCP: z = (%.17g, %g, %.17g, %g)", z[0], z[1], z[2], z[3]);
  cp_destroy(&p);
  solver_destroy(&d);
}

/* Boxes that exclude 0 (the start is mid(lo, hi, 0), not 0) and two-sided ones, on an SPD M. */
static void test_boxes(void)
{
  struct solver *d = test_solver("dantzig", 1e-10);
  for (unsigned long seed = 1; seed <= 5; seed++) {
    struct cp_problem *s = cp_test_spd(12, seed), *p = cp_box_create(12);
    for (int i = 0; i < 144; i++)
      p->M[i] = s->M[i];
    for (int i = 0; i < 12; i++) {
      p->q[i] = 3.0 * s->q[i];
      p->lo[i] = i % 3 == 0 ? 0.05 : -0.3;
      p->hi[i] = i % 4 == 1 ? -0.1 : 0.4;
      if (p->hi[i] < p->lo[i]) p->lo[i] = -0.7;
    }
    double z[12];
    struct solve_result r = run(d, p, z);
    CHECK(r.status == SOLVE_CONVERGED, "box MCP seed %lu: %s, residual %.2g after %d pivots", seed,
          solve_status_name(r.status), r.residual, r.iterations);
    cp_destroy(&s);
    cp_destroy(&p);
  }
  solver_destroy(&d);
}

/* One contact: a normal row 0 and two friction rows 1, 2 with findex 0 and mu = 0.4, the tangential load
 * large enough that friction saturates on row 1. The normal row is decoupled from the friction rows, so its
 * z does not move after they are taken and the box they got (ODE's semantics) is the final one. */
static void test_findex(void)
{
  static const double M[9] = {2.0, 0.0, 0.0, 0.0, 1.5, 0.1, 0.0, 0.1, 1.2};
  static const double q[3] = {-1.0, -2.0, 0.05}, lo[3] = {0.0, 0.0, 0.0}, hi[3] = {INFINITY, 0.4, 0.4};
  static const int findex[3] = {-1, 0, 0};
  struct pivot_problem pp = {3, M, q, lo, hi, findex, 0};
  struct pivot_work ws = {0};
  struct pivot_settings set = {100, 1e-12, NULL, NULL};
  double z[3];
  int pivots = 0;
  CHECK(pivot_work_reserve(&ws, 3) == 0, "findex: workspace");
  enum pivot_status st = pivot_dantzig(&pp, &set, &ws, z, &pivots);
  double bound = 0.4 * z[0], w[3];
  for (int i = 0; i < 3; i++)
    w[i] = q[i] + M[3 * i] * z[0] + M[3 * i + 1] * z[1] + M[3 * i + 2] * z[2];
  CHECK(st == PIVOT_SOLVED && z[0] > 0.0 && fabs(w[0]) < 1e-14, "findex: normal clamped (z0 %g, w0 %.2g)",
        z[0], w[0]);
  CHECK(fabs(z[1] - bound) < 1e-14 && w[1] <= 0.0,
        "findex: row 1 at its friction bound mu z0 = %g (z1 %g, w1 %g)", bound, z[1], w[1]);
  CHECK(fabs(z[2]) < bound && fabs(w[2]) < 1e-14, "findex: row 2 inside its box (z2 %g, w2 %.2g)", z[2],
        w[2]);
  pivot_work_free(&ws);
}

/* pivot_dantzig_warm: a box problem solved cold, its boxes then moved a little (as the friction-index loop
 * moves the friction boxes): the warm solve from the last placement gives the cold solve's z in fewer pivots;
 * boxes that leave a clamped z outside (each clamped index's box moved above its z) make the warm start
 * invalid, and the solve starts cold with the cold solve's pivots; another n is a cold start too. */
static void test_warm(void)
{
  const int n = 30;
  struct cp_problem *s = cp_test_spd(n, 11);
  double lo[30], hi[30], lo2[30], hi2[30], zc[30], zw[30], q[30];
  for (int i = 0; i < n; i++) {
    q[i] = 0.3 * s->q[i];
    lo[i] = -0.3, hi[i] = 0.4;
    lo2[i] = lo[i] * (1.0 + 0.01 * (i % 5)), hi2[i] = hi[i] * (1.0 - 0.01 * (i % 7));
  }
  struct pivot_problem p1 = {n, s->M, q, lo, hi, NULL, 0}, p2 = {n, s->M, q, lo2, hi2, NULL, 0};
  struct pivot_work ws = {0};
  struct pivot_settings set = {10000, 1e-12, NULL, NULL};
  int first = 0, cold = 0, warm = 0, again = 0;
  CHECK(pivot_work_reserve(&ws, n) == 0, "warm start: workspace");
  enum pivot_status a = pivot_dantzig(&p2, &set, &ws, zc, &cold);
  enum pivot_status b = pivot_dantzig(&p1, &set, &ws, zw, &first);
  enum pivot_status c = pivot_dantzig_warm(&p2, &set, &ws, n, zw, &warm);
  double diff = 0.0;
  for (int i = 0; i < n; i++)
    diff = fmax(diff, fabs(zc[i] - zw[i]));
  CHECK(a == PIVOT_SOLVED && b == PIVOT_SOLVED && c == PIVOT_SOLVED && diff < 1e-12 && warm < cold / 2,
        "warm start on moved boxes: z as the cold solve's (max |dz| %.2g) in %d pivots against %d cold", diff,
        warm, cold);
  b = pivot_dantzig(&p1, &set, &ws, zw, &first);
  int clamped = 0;
  for (int i = 0; i < n; i++) { /* every clamped z's box moved above it, the other boxes as in p1 */
    lo2[i] = ws.pos[i] >= 0 ? zw[i] + 0.05 : lo[i];
    hi2[i] = ws.pos[i] >= 0 ? zw[i] + 0.15 : hi[i];
    clamped += ws.pos[i] >= 0;
  }
  c = pivot_dantzig_warm(&p2, &set, &ws, n, zw, &warm);
  a = pivot_dantzig(&p2, &set, &ws, zc, &cold);
  diff = 0.0;
  for (int i = 0; i < n; i++)
    diff = fmax(diff, fabs(zc[i] - zw[i]));
  enum pivot_status e = pivot_dantzig_warm(&p2, &set, &ws, n - 1, zw, &again);
  CHECK(clamped > 0 && a == PIVOT_SOLVED && b == PIVOT_SOLVED && c == PIVOT_SOLVED && e == PIVOT_SOLVED &&
            diff < 1e-12 && warm == cold && again == cold,
        "warm start not valid (%d clamped z outside their new boxes; another n): cold, %d and %d pivots as "
        "the cold solve's %d, max |dz| %.2g",
        clamped, warm, again, cold, diff);
  pivot_work_free(&ws);
  cp_destroy(&s);
}

static void test_statuses(void)
{
  struct solver *d = test_solver("dantzig", 1e-10);
  struct cp_problem *p = cp_lcp_create(2);
  /* upper triangular with a positive diagonal: a P-matrix, z = (0, 1), w = (1, 0) */
  p->M[0] = 1, p->M[1] = 2, p->M[2] = 0, p->M[3] = 1, p->q[0] = -1, p->q[1] = -1;
  double z[40];
  struct solve_result r = run(d, p, z);
  CHECK(r.status == SOLVE_CONVERGED && z[0] == 0.0 && fabs(z[1] - 1.0) <= 1e-15,
        "nonsymmetric P-matrix [1 2; 0 1]: %s, z = (%g, %g)", solve_status_name(r.status), z[0], z[1]);
  /* a zero diagonal (a Stewart-Trinkle multiplier row's): not a P-matrix */
  p->M[0] = 0, p->M[1] = 1, p->M[2] = -1, p->M[3] = 1;
  r = run(d, p, z);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "nonsymmetric M, M_00 = 0: %s (%s)", solve_status_name(r.status),
        r.message);
  /* a positive diagonal but not a P-matrix (det [1 2; 1 1] = -1): the first Schur complement is negative */
  p->M[0] = 1, p->M[1] = 2, p->M[2] = 1, p->M[3] = 1, p->q[0] = -1, p->q[1] = -1;
  r = run(d, p, z);
  CHECK(r.status != SOLVE_CONVERGED || (r.residual <= 1e-12 && z[0] >= 0.0 && z[1] >= 0.0),
        "nonsymmetric, not P [1 2; 1 1]: %s (%s)", solve_status_name(r.status), r.message);
  cp_destroy(&p);
  /* M = [0], q = -1: driving z up never changes w, nothing blocks */
  p = cp_lcp_create(1);
  p->M[0] = 0.0, p->q[0] = -1.0;
  r = run(d, p, z);
  CHECK(r.status == SOLVE_RAY_TERMINATION && r.no_answer, "M = 0, q = -1: %s", solve_status_name(r.status));
  cp_destroy(&p);
  p = cp_test_spd(40, 3);
  d->set.max_it = 2;
  r = run(d, p, z);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 2 && r.no_answer, "-cp_max_it 2: %s after %d",
        solve_status_name(r.status), r.iterations);
  cp_destroy(&p);
  solver_destroy(&d);
}

/* max_r |(M_CC x - b)_r| / max |b| for the factor in ws, C = ws->idx[0..k-1], x = M_CC^-1 b. */
static double ldl_residual(const struct pivot_work *ws, const struct cp_problem *p, int k)
{
  double b[16], x[16], err = 0.0, big = 0.0;
  for (int r = 0; r < k; r++)
    b[r] = x[r] = 1.0 + 0.37 * r - 0.05 * r * r;
  pivot_ldu_solve(ws, k, x);
  for (int r = 0; r < k; r++) {
    double y = -b[r];
    for (int c = 0; c < k; c++)
      y += p->M[(size_t)ws->idx[r] * p->n + ws->idx[c]] * x[c];
    err = fmax(err, fabs(y));
    big = fmax(big, fabs(b[r]));
  }
  return err / big;
}

/* The factor grown one row at a time to 13 (every remainder of the four-row blocks), then positions removed
 * (first, middle, last): each time M_CC x = b solved to rounding; LDL^T on an SPD M, LDU on a nonsymmetric
 * positive definite one. */
static void test_factor_solves(int nonsymmetric)
{
  const int n = 13;
  struct cp_problem *p = nonsymmetric ? nonsymmetric_pd(n, 5) : cp_test_spd(n, 5);
  struct pivot_work ws = {0};
  double worst = 0.0;
  int ok = p && pivot_work_reserve(&ws, n) == 0;
  pivot_ldu_mode(&ws, nonsymmetric);
  for (int k = 0; ok && k < n; k++) {
    ok = pivot_ldu_append(&ws, k, p->M, n, k, 1e-12) == 0;
    if (ok) worst = fmax(worst, ldl_residual(&ws, p, k + 1));
  }
  static const int drop[] = {0, 5, 10};
  for (int j = 0, k = n; ok && j < 3; j++, k--) {
    pivot_ldu_remove(&ws, k, drop[j], n);
    worst = fmax(worst, ldl_residual(&ws, p, k - 1));
  }
  CHECK(ok && worst <= 1e-13,
        "the %s factor's solves, k = 1..13 and after 3 removals: |M_CC x - b| / |b| = %.2g",
        nonsymmetric ? "LDU" : "LDL^T", worst);
  pivot_work_free(&ws);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_spd_vs_lemke();
  test_mlcp_saddle();
  test_boxes();
  test_findex();
  test_warm();
  test_statuses();
  test_nonsymmetric_vs_lemke();
  test_factor_solves(0);
  test_factor_solves(1);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
