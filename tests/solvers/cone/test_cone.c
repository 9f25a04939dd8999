/* test_cone.c — the frictional-contact solvers (solvers/cone/): the Alart-Curnier function's generalized
 * Jacobian (cone_ac_function's A, B) against central differences at random points of every branch, d = 3
 * and 2; one-contact problems with known answers (take-off, sticking, sliding, in 3D and 2D) solved by each
 * of our solvers to 1e-10; fc_nsgs on coupled contacts (symmetric and nonsymmetric W, warm start, W in other
 * units); every solver honours -cp_max_it and -cp_time_limit; NaN in the data is
 * nan_or_inf; and on the Siconos data folder, when present, which problems each solver converges on. */
#include "check.h"
#include "cone.h"
#include "cp.h"
#include "cp_fc.h"
#include "cp_io.h"
#include "solver.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ours[] = {"fc_nsgs", "fc_newton", "fc_admm", NULL};

/* A deterministic non-round value in [-1, 1] for the k-th draw. */
static double draw(int k) { return sin(12.9898 * k + 78.233 * (k % 7)); }

/* Worst |analytic - central difference| over A (d phi / d r) and B (d phi / d u) at (r, u). */
static double ac_fd_error(int d, double mu, double rho_n, double rho_t, const double *r, const double *u)
{
  double phi[3], A[9], B[9], pp[3], pm[3], x[3], y[3], h = 1e-7, worst = 0.0;
  cone_ac_function(d, mu, rho_n, rho_t, r, u, phi, A, B);
  for (int j = 0; j < d; j++)
    for (int which = 0; which < 2; which++) {
      memcpy(x, r, sizeof x);
      memcpy(y, u, sizeof y);
      double *v = which ? y : x;
      v[j] += h;
      cone_ac_function(d, mu, rho_n, rho_t, x, y, pp, NULL, NULL);
      v[j] -= 2 * h;
      cone_ac_function(d, mu, rho_n, rho_t, x, y, pm, NULL, NULL);
      for (int i = 0; i < d; i++) {
        double fd = (pp[i] - pm[i]) / (2 * h), an = which ? B[i * d + j] : A[i * d + j];
        worst = fmax(worst, fabs(fd - an));
      }
    }
  return worst;
}

static void test_ac_jacobian(void)
{
  for (int d = 2; d <= 3; d++) {
    double worst = 0.0;
    int branches[4] = {0, 0, 0, 0}, k = 0;
    for (int t = 0; t < 400; t++) {
      double r[3] = {0, 0, 0}, u[3] = {0, 0, 0}, mu = 0.3 + 0.5 * fabs(draw(k++));
      for (int i = 0; i < d; i++) {
        r[i] = 2.0 * draw(k++);
        u[i] = 2.0 * draw(k++);
      }
      double rho_n = 0.5 + fabs(draw(k++)), rho_t = 0.5 + fabs(draw(k++));
      double xn = r[0] - rho_n * u[0], yt = hypot(r[1] - rho_t * u[1], d == 3 ? r[2] - rho_t * u[2] : 0.0);
      double R = mu * fmax(0.0, xn);
      if (fabs(xn) < 1e-4 || fabs(yt - R) < 1e-4) continue; /* a kink within the difference step */
      branches[(xn > 0) * 2 + (yt <= R)]++;
      worst = fmax(worst, ac_fd_error(d, mu, rho_n, rho_t, r, u));
    }
    CHECK(worst < 1e-6,
          "d = %d: AC Jacobian = central differences (worst %.2e; open/slide %d, open/stick %d, "
          "closed %d)",
          d, worst, branches[2], branches[3], branches[0] + branches[1]);
    CHECK(branches[2] > 20 && branches[3] > 5, "d = %d: both open branches visited", d);
  }
}

/* One contact, W = diag(w), q, mu: the answer r_expected. */
static void one_contact(int d, const double *w, const double *q, double mu, const double *expect,
                        const char *what)
{
  struct cp_problem *p = cp_fc_create(d, 1);
  for (int i = 0; i < d; i++) {
    p->M[i * d + i] = w[i];
    p->q[i] = q[i];
  }
  p->mu[0] = mu;
  for (const char *const *name = ours; *name; name++) {
    double z[3] = {0, 0, 0};
    struct solver *s = test_solver(*name, 1e-12);
    struct solve_result r;
    solver_solve(s, p, z, &r);
    double diff = 0.0;
    for (int i = 0; i < d; i++)
      diff = fmax(diff, fabs(z[i] - expect[i]));
    CHECK(r.status == SOLVE_CONVERGED && diff < 1e-10, "%s, %dD %s: converged (%s) to the answer (%.1e)",
          *name, d, what, solve_status_name(r.status), diff);
    solver_destroy(&s);
  }
  cp_destroy(&p);
}

static void test_one_contact(void)
{
  const double w3[3] = {2.0, 1.5, 1.25}, w2[2] = {2.0, 1.5};
  /* take-off: q_N > 0, r = 0 */
  one_contact(3, w3, (const double[]){0.3, 1.0, -0.4}, 0.5, (const double[]){0, 0, 0}, "take-off");
  /* sticking: r = -W^-1 q inside the cone (|r_T| = 0.1 <= 0.5 x 0.5) */
  one_contact(3, w3, (const double[]){-1.0, 0.15, -0.0625}, 0.5, (const double[]){0.5, -0.1, 0.05},
              "sticking");
  /* sliding: u_N = 0 so r_N = 1/2; r_T = -mu r_N u_T / |u_T| with u_T = (1.5 (-0.15 ...)) solved below */
  /* W = diag(2, 1.5, 1.25), q = (-1, 3, 0): r_N = 0.5, r_T = (-0.25, 0), u_T = (3 - 0.375, 0) > 0 */
  one_contact(3, w3, (const double[]){-1.0, 3.0, 0.0}, 0.5, (const double[]){0.5, -0.25, 0.0}, "sliding");
  one_contact(2, w2, (const double[]){0.3, 1.0}, 0.5, (const double[]){0, 0}, "take-off");
  one_contact(2, w2, (const double[]){-1.0, 0.15}, 0.5, (const double[]){0.5, -0.1}, "sticking");
  one_contact(2, w2, (const double[]){-1.0, -3.0}, 0.5, (const double[]){0.5, 0.25}, "sliding");
}

static struct cp_problem *data_problem(const char *file)
{
  const char *data = check_shared_data();
  char path[512], err[512];
  struct cp_problem *p = NULL;
  if (!data) return NULL;
  snprintf(path, sizeof path, "%s/siconos/fc3d/%s", data, file);
  if (cp_read_file(path, CP_FILE_AUTO, &p, err, sizeof err) != 0) printf("# %s\n", err);
  return p;
}

/* nc = 6 coupled 3D contacts: W = A A' / 18 + 0.2 I (+ a skew part when skew != 0: still positive definite,
 * no longer symmetric), W scaled by s (the reactions by 1 / s: the same problem in other units), q with
 * every normal pressed in. */
static struct cp_problem *coupled_problem(double skew, double s)
{
  enum { NC = 6, N = 18 };
  struct cp_problem *p = cp_fc_create(3, NC);
  double A[N * N];
  for (int k = 0; k < N * N; k++)
    A[k] = draw(k + 1);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double w = i == j ? 0.2 : 0.0;
      for (int k = 0; k < N; k++)
        w += A[i * N + k] * A[j * N + k] / N;
      p->M[i * N + j] = s * (w + skew * (i < j ? draw(i * N + j) : -draw(j * N + i)));
    }
  for (int c = 0; c < NC; c++) {
    p->q[3 * c] = -1.0 - 0.5 * fabs(draw(100 + c));
    p->q[3 * c + 1] = draw(200 + c);
    p->q[3 * c + 2] = draw(300 + c);
    p->mu[c] = 0.3 + 0.2 * fabs(draw(400 + c));
  }
  return p;
}

/* fc_nsgs keeps u = W r + q by column updates (rows of a symmetric W, columns otherwise) and its local
 * goal scales with the reactions: symmetric and nonsymmetric W converge, a warm start near the answer takes
 * fewer sweeps, and W scaled by 1e-4 (reactions ~1e4) takes the sweeps of the unscaled problem. */
static void test_nsgs_coupled(void)
{
  int sweeps[2] = {0, 0};
  for (int k = 0; k < 3; k++) {
    struct cp_problem *p = coupled_problem(k == 1 ? 0.1 : 0.0, k == 2 ? 1e-4 : 1.0);
    double z[18] = {0};
    struct solve_result r;
    struct solver *s = test_solver("fc_nsgs", 1e-8);
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_CONVERGED && r.iterations > 3, "fc_nsgs, 6 coupled contacts, %s: %s in %d sweeps",
          k == 0   ? "symmetric W"
          : k == 1 ? "nonsymmetric W"
                   : "W x 1e-4",
          solve_status_name(r.status), r.iterations);
    if (k != 1) sweeps[k / 2] = r.iterations;
    solver_destroy(&s);
    if (k == 0) {
      for (int i = 0; i < 18; i++)
        z[i] *= 1.0 + 1e-6 * draw(500 + i);
      s = test_solver_with("fc_nsgs", 1e-8, OPTS("-cp_warm_start", "1"));
      struct solve_result w;
      solver_solve(s, p, z, &w);
      CHECK(w.status == SOLVE_CONVERGED && w.iterations < r.iterations,
            "fc_nsgs warm start 1e-6 from the answer: %s in %d sweeps (cold: %d)",
            solve_status_name(w.status), w.iterations, r.iterations);
      solver_destroy(&s);
    }
    cp_destroy(&p);
  }
  CHECK(abs(sweeps[0] - sweeps[1]) <= 1, "fc_nsgs sweeps with W and W x 1e-4: %d and %d", sweeps[0],
        sweeps[1]);
}

/* -cp_max_it 3 stops every solver after 3 iterations; -cp_time_limit 0.02 stops a long solve soon after. */
static void test_limits(void)
{
  struct cp_problem *p = data_problem("Capsules-i101-404.dat");
  if (!p) {
    check_skip("limits on Capsules-i101-404: shared data absent");
    return;
  }
  double *z = calloc((size_t)p->n, sizeof *z);
  for (const char *const *name = ours; *name; name++) {
    struct solve_result r;
    struct solver *s = test_solver_with(*name, 1e-8, OPTS("-cp_max_it", "3"));
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 3, "%s: -cp_max_it 3 -> %s after %d", *name,
          solve_status_name(r.status), r.iterations);
    solver_destroy(&s);
    s = test_solver_with(*name, 1e-14, OPTS("-cp_time_limit", "0.02"));
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_TIME_LIMIT && r.seconds < 1.0, "%s: -cp_time_limit 0.02 -> %s after %.3f s",
          *name, solve_status_name(r.status), r.seconds);
    solver_destroy(&s);
  }
  free(z);
  cp_destroy(&p);
}

/* NaN in q: nan_or_inf, never converged. */
static void test_nan(void)
{
  struct cp_problem *p = cp_fc_create(3, 2);
  for (int i = 0; i < 6; i++) {
    p->M[i * 6 + i] = 1.0;
    p->q[i] = -1.0;
  }
  p->mu[0] = p->mu[1] = 0.3;
  p->q[4] = NAN;
  for (const char *const *name = ours; *name; name++) {
    double z[6] = {0};
    struct solve_result r;
    struct solver *s = test_solver(*name, 1e-8);
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_NAN_OR_INF, "%s: NaN in q -> %s", *name, solve_status_name(r.status));
    solver_destroy(&s);
  }
  cp_destroy(&p);
}

/* Which data-folder problems each solver converges on (tol 1e-8, its defaults); every problem by one. */
static void test_data_folder(void)
{
  static const char *const files[] = {"BoxesStack1-i100000-32.hdf5.dat",
                                      "Capsules-i101-404.dat",
                                      "Confeti-ex03-Fc3D-SBM.dat",
                                      "FC3D_Example1.dat",
                                      "FrictionContact3D_1c.dat",
                                      "FrictionContactProblem00071.dat",
                                      "FrictionContactProblem00374.dat",
                                      "NESpheres_10_1.dat",
                                      "OneObject-i100000-499.hdf5.dat",
                                      "Rover1039.dat",
                                      "Rover4396.dat",
                                      "Rover4516.dat",
                                      "fc2d_granularflowonwall_00667_00000.dat"};
  /* expected: 1 converged, 0 not, ? either; per solver, in the order of ours[] (measured; see
   * results/reference/fc3d). fc_newton on BoxesStack1 is a knife edge: its iterates wander (the residual
   * between 1e-1 and 1e-6 for hundreds of iterations, rho restarts) and whether one of its restarts lands
   * below 1e-8 changes with the rounding of the LU (OpenBLAS' kernel, LU of J or of J'): 104 to 334
   * iterations or 1000 without, at 1e-6. fc_admm solves it every time. */
  static const char expect[3][14] = {"0011111101111", "?111111111111", "1101111111111"};
  int by_any = 0;
  for (int f = 0; f < 13; f++) {
    struct cp_problem *p = data_problem(files[f]);
    if (!p) {
      check_skip("%s: shared data absent", files[f]);
      continue;
    }
    double *z = calloc((size_t)p->n, sizeof *z);
    int any = 0;
    for (int k = 0; ours[k]; k++) {
      struct solve_result r;
      struct solver *s = test_solver(ours[k], 1e-8);
      solver_solve(s, p, z, &r);
      int ok = r.status == SOLVE_CONVERGED;
      any |= ok;
      CHECK(expect[k][f] == '?' || ok == (expect[k][f] == '1'), "%s on %s: %s (residual %.2e, %d iterations)",
            ours[k], files[f], solve_status_name(r.status), r.residual, r.iterations);
      solver_destroy(&s);
    }
    by_any += any;
    free(z);
    cp_destroy(&p);
  }
  CHECK(by_any == 13 || !check_shared_data(), "every problem of the data folder solved by one of ours (%d)",
        by_any);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_ac_jacobian();
  test_one_contact();
  test_nsgs_coupled();
  test_limits();
  test_nan();
  test_data_folder();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
