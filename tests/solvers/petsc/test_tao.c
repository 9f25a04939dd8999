/* test_tao.c — the PETSc/TAO family (solvers/petsc/tao.c, tao_snes.c): every method on a random SPD LCP (n =
 * 30) against PGS, a mixed LCP and a box MCP with finite bounds built around known solutions, a callback NCP
 * with a known solution, the QP methods refusing a nonsymmetric M, the limits (-cp_max_it, time limit,
 * prefixed PETSc options), the AIJ path, and the degenerate Egan et al. Fig. 3(b) LCP (max formulation,
 * gamma = 100), on which a PETSc error must become a recorded status and the run must go on. */
#include "check.h"
#include "cp.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <string.h>

static const char *const mcp_solvers[] = {"tao_ssils",         "tao_ssfls",         "tao_asils", "tao_asfls",
                                          "snes_vinewtonrsls", "snes_vinewtonssls", NULL};
static const char *const qp_solvers[] = {"tao_bqpip", "tao_gpcg", NULL};

/* Solves p with s (NULL: a failure) at tol and destroys s; returns the status, z filled. */
static enum solve_status solve_once(struct solver *s, const struct cp_problem *p, double tol, double *z,
                                    struct solve_result *r)
{
  memset(r, 0, sizeof *r);
  if (!s) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    return r->status;
  }
  s->set.tol = tol;
  solver_solve(s, p, z, r);
  solver_destroy(&s);
  return r->status;
}

/* Solves p with `name` (its defaults) at tol; returns the status, z filled. */
static enum solve_status run(const char *name, const struct cp_problem *p, double tol, double *z,
                             struct solve_result *r)
{
  return solve_once(test_solver(name, 0.0), p, tol, z, r);
}

/* `name` with the options it reads from o, the test's own object (o must outlive the solver); NULL, with a
 * failed check quoting the message, when it refuses them. */
static struct solver *reading(const char *name, PetscOptions o)
{
  struct solver *s = test_solver(name, 0.0);
  char msg[256] = "";
  if (s && solver_set_from_options(s, o, msg, sizeof msg) != 0) {
    CHECK(0, "%s reads the test's options object: %s", name, msg);
    solver_destroy(&s);
  }
  return s;
}

static void test_spd(void)
{
  struct cp_problem *p = cp_test_spd(30, 20261122);
  double zref[30] = {0}, z[30] = {0};
  struct solve_result r;
  run("pgs", p, 1e-12, zref, &r);
  CHECK(r.status == SOLVE_CONVERGED, "spd n=30: pgs reference converges (%s)", solve_status_name(r.status));
  const char *const *lists[2] = {mcp_solvers, qp_solvers};
  for (int l = 0; l < 2; l++)
    for (const char *const *name = lists[l]; *name; name++) {
      run(*name, p, 1e-10, z, &r);
      CHECK(r.status == SOLVE_CONVERGED, "spd n=30: %s converges (%s, %d its, residual %.2g) %s", *name,
            solve_status_name(r.status), r.iterations, r.residual, r.message);
      double d = max_abs_diff(z, zref, 30);
      CHECK(d <= 1e-6, "spd n=30: %s agrees with pgs (max diff %.2g)", *name, d);
    }
  cp_destroy(&p);
}

/* M = G G^T / n + 0.5 I + skew * S (S skew-symmetric): positive definite, so the solution is unique. */
static void fill_pd(double *M, int n, double skew, gsl_rng *rng)
{
  double G[64];
  for (int k = 0; k < n * n; k++)
    G[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++)
        s += G[i * n + k] * G[j * n + k];
      s /= n;
      double a = skew * (2.0 * gsl_rng_uniform(rng) - 1.0);
      M[i * n + j] = s + (i == j ? 0.5 : a);
      M[j * n + i] = s + (i == j ? 0.5 : -a);
    }
}

/* F(z*) = M z* + q with the signs the MCP wants at z*: q = F* - M z*. */
static void set_q_for(struct cp_problem *p, const double *zs, const double *Fs)
{
  int n = p->n;
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++)
      s += p->M[i * n + j] * zs[j];
    p->q[i] = Fs[i] - s;
  }
}

static void test_mlcp_and_box(gsl_rng *rng)
{
  /* Mixed LCP: u free (2), v >= 0 (4) with v* = (0.83, 0, 0.29, 0), w* = (0, 0.57, 0, 1.13). */
  double zs[6] = {0.37, -1.21, 0.83, 0.0, 0.29, 0.0}, Fs[6] = {0, 0, 0, 0.57, 0, 1.13}, z[6] = {0};
  struct solve_result r;
  for (int sym = 0; sym < 2; sym++) {
    struct cp_problem *p = cp_mlcp_create(2, 4);
    fill_pd(p->M, 6, sym ? 0.0 : 0.4, rng);
    set_q_for(p, zs, Fs);
    const char *const *list = sym ? qp_solvers : mcp_solvers;
    for (const char *const *name = list; *name; name++) {
      run(*name, p, 1e-10, z, &r);
      CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zs, 6) <= 1e-7,
            "%s mlcp: %s finds the known solution (%s, diff %.2g)", sym ? "symmetric" : "nonsymmetric", *name,
            solve_status_name(r.status), max_abs_diff(z, zs, 6));
    }
    cp_destroy(&p);
  }
  /* Box MCP, bounds [-0.4, 0.9]: z* at the lower bound (F > 0), at the upper (F < 0), inside (F = 0). */
  double bs[5] = {-0.4, 0.9, 0.31, 0.9, -0.17}, bF[5] = {0.73, -0.41, 0.0, -1.07, 0.0}, zb[5] = {0};
  for (int sym = 0; sym < 2; sym++) {
    struct cp_problem *p = cp_box_create(5);
    for (int i = 0; i < 5; i++) {
      p->lo[i] = -0.4;
      p->hi[i] = 0.9;
    }
    fill_pd(p->M, 5, sym ? 0.0 : 0.4, rng);
    set_q_for(p, bs, bF);
    const char *const *list = sym ? qp_solvers : mcp_solvers;
    for (const char *const *name = list; *name; name++) {
      run(*name, p, 1e-10, zb, &r);
      CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(zb, bs, 5) <= 1e-7,
            "%s box mcp: %s finds the known solution (%s, diff %.2g)", sym ? "symmetric" : "nonsymmetric",
            *name, solve_status_name(r.status), max_abs_diff(zb, bs, 5));
    }
    cp_destroy(&p);
  }
}

/* NCP with solution z* = (0.6, 0, 1.1): F1 = 0 and F3 = 0 inside, F2(z*) = 0.91 > 0 at the bound. */
static int ncp_F(void *ctx, const double *z, double *F)
{
  (void)ctx;
  F[0] = exp(z[0]) - exp(0.6) + 0.4 * (z[2] - 1.1);
  F[1] = z[1] + z[0] * z[2] + 0.25;
  F[2] = z[2] * z[2] * z[2] - 1.331 - 0.4 * (z[0] - 0.6) + 0.2 * z[1];
  return 0;
}

static int ncp_J(void *ctx, const double *z, double *J)
{
  (void)ctx;
  const double rows[9] = {exp(z[0]), 0.0, 0.4, z[2], 1.0, z[0], -0.4, 0.2, 3.0 * z[2] * z[2]};
  memcpy(J, rows, sizeof rows);
  return 0;
}

static void test_ncp(void)
{
  struct cp_problem *p = cp_ncp_create(3, ncp_F, ncp_J, NULL);
  const double zs[3] = {0.6, 0.0, 1.1};
  double z[3] = {0};
  struct solve_result r;
  for (const char *const *name = mcp_solvers; *name; name++) {
    run(*name, p, 1e-11, z, &r);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zs, 3) <= 1e-8,
          "callback ncp: %s finds z* (%s, diff %.2g)", *name, solve_status_name(r.status),
          max_abs_diff(z, zs, 3));
  }
  for (const char *const *name = qp_solvers; *name; name++) {
    run(*name, p, 1e-11, z, &r);
    CHECK(r.status == SOLVE_NOT_APPLICABLE, "callback ncp: %s says not_applicable (%s)", *name,
          solve_status_name(r.status));
  }
  cp_destroy(&p);
}

static void test_qp_refuses_nonsymmetric(void)
{
  struct cp_problem *p = cp_lcp_create(2);
  const double M[4] = {2.0, 1.0, 0.3, 2.0};
  memcpy(p->M, M, sizeof M);
  p->q[0] = -1.7;
  p->q[1] = -0.9;
  double z[2] = {0};
  struct solve_result r;
  for (const char *const *name = qp_solvers; *name; name++) {
    run(*name, p, 1e-10, z, &r);
    CHECK(r.status == SOLVE_NOT_APPLICABLE && strstr(r.message, "symmetric"),
          "nonsymmetric M: %s gives not_applicable with a message (%s: %s)", *name,
          solve_status_name(r.status), r.message);
  }
  cp_destroy(&p);
}

static void test_limits_and_options(void)
{
  struct cp_problem *p = cp_test_spd(30, 77);
  double z[30] = {0};
  struct solve_result r;
  struct solver *s = NULL;
  solver_create("tao_ssils", &s, NULL, 0);
  s->set.tol = 1e-12;
  s->set.max_it = 1;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations <= 1, "tao_ssils honours -cp_max_it 1 (%s after %d)",
        solve_status_name(r.status), r.iterations);
  s->set.max_it = 0;
  s->set.time_limit = 1e-9;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_TIME_LIMIT, "tao_ssils honours the time limit (%s)", solve_status_name(r.status));
  solver_destroy(&s);

  solver_create("snes_vinewtonrsls", &s, NULL, 0);
  s->set.time_limit = 1e-9;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_TIME_LIMIT, "snes_vinewtonrsls honours the time limit (%s)",
        solve_status_name(r.status));
  solver_destroy(&s);

  /* Prefixed PETSc options reach the right object: -tao_ssfls_tao_max_it 2, in the options object both read,
   * stops ssfls only. */
  PetscOptions o = test_options_object(OPTS("-tao_ssfls_tao_max_it", "2"));
  solve_once(reading("tao_ssfls", o), p, 1e-12, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 2,
        "-tao_ssfls_tao_max_it 2 stops ssfls (%s after %d)", solve_status_name(r.status), r.iterations);
  solve_once(reading("tao_ssils", o), p, 1e-12, z, &r);
  CHECK(r.status == SOLVE_CONVERGED, "... and leaves ssils alone (%s)", solve_status_name(r.status));
  PetscOptionsDestroy(&o);

  /* The AIJ path (sparse direct solves) gives the same answer as the dense one. */
  double zd[30] = {0};
  run("snes_vinewtonrsls", p, 1e-12, zd, &r);
  solve_once(test_solver_with("snes_vinewtonrsls", 0.0, OPTS("-snes_vinewtonrsls_mat_type", "aij")), p, 1e-12,
             z, &r);
  CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zd, 30) <= 1e-9,
        "snes_vinewtonrsls with AIJ (%s, diff %.2g)", solve_status_name(r.status), max_abs_diff(z, zd, 30));
  solve_once(test_solver_with("tao_ssils", 0.0, OPTS("-tao_ssils_mat_type", "aij")), p, 1e-12, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zd, 30) <= 1e-9, "tao_ssils with AIJ (%s, diff %.2g)",
        solve_status_name(r.status), max_abs_diff(z, zd, 30));
  cp_destroy(&p);
}

/* Egan et al. Fig. 3(b), max formulation: degenerate; the note records ssils/asils stopping with a
 * PETSc zero-pivot error (dense LU). Whatever each method does must be reported honestly and the run
 * must go on. */
static void test_egan_degenerate(void)
{
  struct cp_problem *p = cp_test_egan_max(-1.5, -0.5, 100.0);
  double z[10] = {0};
  struct solve_result r;
  for (const char *const *name = mcp_solvers; *name; name++) {
    run(*name, p, 1e-8, z, &r);
    struct cp_check c;
    cp_check(p, z, NULL, &c);
    int passes = cp_check_passes(&c, 1e-8);
    CHECK((r.status == SOLVE_CONVERGED) == passes, "egan fig3b: %s reports %s honestly (residual %.3g) %s",
          *name, solve_status_name(r.status), c.natural, r.message);
  }
  /* Dense storage: LAPACK's LU meets the exactly singular Newton matrix and PETSc raises an error, which
   * must come back as a recorded failure with PETSc's message (AIJ, the default here, shifts the pivot). */
  solve_once(test_solver_with("tao_ssils", 0.0, OPTS("-tao_ssils_mat_type", "dense")), p, 1e-8, z, &r);
  CHECK(r.status == SOLVE_NUMERICAL_FAILURE && strstr(r.message, "PETSc error"),
        "egan fig3b, dense: the tao_ssils zero-pivot error is a recorded failure (%s: %s)",
        solve_status_name(r.status), r.message);
  cp_destroy(&p);
  /* PETSc is still usable after the errors above. */
  p = cp_test_spd(10, 5);
  double zz[10] = {0};
  run("tao_ssils", p, 1e-10, zz, &r);
  CHECK(r.status == SOLVE_CONVERGED, "after the PETSc errors, tao_ssils still solves an SPD LCP (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 4242);
  test_spd();
  test_mlcp_and_box(rng);
  test_ncp();
  test_qp_refuses_nonsymmetric();
  test_limits_and_options();
  test_egan_degenerate();
  gsl_rng_free(rng);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
