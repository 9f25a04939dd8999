/* test_lying_solver.c — the harness (solvers/core/solver.c) against a solver that lies. The solver type is
 * defined here and never registered: it returns a z and a claimed status chosen by the test, so every
 * verdict below is the harness's own. Claimed convergence with a wrong or NaN z is not converged; a
 * claimed infeasibility is certified only when a Farkas vector proves the feasible set empty (an LCP and
 * a mixed LCP), and stays unverified on a solvable problem and on one whose infeasibility no such vector
 * shows; a claimed infeasibility with a z that solves is converged. The registered enum and milp get the
 * same judgement on their real claims. */
#include "check.h"
#include "cp.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

struct lie {
  enum solve_status claim;
  double z[4];
};

static int lie_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct lie *l = s->data;
  for (int i = 0; i < p->n && i < 4; i++)
    z[i] = l->z[i];
  r->status = l->claim;
  r->iterations = 1;
  return 0;
}

static const struct solver_type lying_type = {
    .name = "lying",
    .summary = "test only: returns the z and the status it is told to",
    .kinds = CP_LCP | CP_MLCP,
    .solve = lie_solve,
};

/* Built by hand: solver_create looks names up in the registry, which must not hold a liar. */
static struct solver *lying_solver(struct lie *l)
{
  struct solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->type = &lying_type;
  s->data = l; /* owned by the caller; lying_type has no destroy */
  if (option_defaults(solver_harness_options, solver_n_harness_options, &s->set, NULL, 0) != 0)
    solver_destroy(&s);
  return s;
}

static struct cp_problem *lcp2(double m00, double m01, double m10, double m11, double q0, double q1)
{
  struct cp_problem *p = cp_lcp_create(2);
  p->M[0] = m00;
  p->M[1] = m01;
  p->M[2] = m10;
  p->M[3] = m11;
  p->q[0] = q0;
  p->q[1] = q1;
  return p;
}

static struct solve_result lie_on(const struct cp_problem *p, enum solve_status claim, double z0, double z1)
{
  struct lie l = {claim, {z0, z1, 0.0, 0.0}};
  struct solver *s = lying_solver(&l);
  struct solve_result r;
  double z[4] = {0};
  memset(&r, 0, sizeof r);
  r.status = SOLVE_STATUS_COUNT;
  if (s) solver_solve(s, p, z, &r);
  solver_destroy(&s);
  return r;
}

static void test_false_convergence(void)
{
  /* M = [2 1; 1 2], q = (-5, -6): the solution is z = (4/3, 7/3) */
  struct cp_problem *p = lcp2(2, 1, 1, 2, -5, -6);
  struct solve_result r = lie_on(p, SOLVE_CONVERGED, 1.0, 2.0);
  CHECK(r.status == SOLVE_NUMERICAL_FAILURE && strstr(r.message, "claimed convergence"),
        "claimed converged with a wrong z: numerical_failure (%s: %s)", solve_status_name(r.status),
        r.message);
  r = lie_on(p, SOLVE_CONVERGED, NAN, 2.0);
  CHECK(r.status == SOLVE_NAN_OR_INF, "claimed converged with NaN in z: nan_or_inf (%s)",
        solve_status_name(r.status));
  r = lie_on(p, SOLVE_MAX_ITERATIONS, 4.0 / 3.0, 7.0 / 3.0);
  CHECK(r.status == SOLVE_CONVERGED, "gave up (max_iterations) with the solution in z: converged (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
}

static void test_false_infeasibility(void)
{
  struct cp_problem *p = lcp2(2, 1, 1, 2, -5, -6);
  struct solve_result r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && !r.infeasible_certified && strstr(r.message, "unverified"),
        "claimed infeasible on a solvable LCP: not certified, the message says unverified (%s, certified %d: "
        "%s)",
        solve_status_name(r.status), r.infeasible_certified, r.message);
  r = lie_on(p, SOLVE_INFEASIBLE, 4.0 / 3.0, 7.0 / 3.0);
  CHECK(r.status == SOLVE_CONVERGED && !r.infeasible_certified,
        "claimed infeasible with the solution in z: converged (%s)", solve_status_name(r.status));
  cp_destroy(&p);
  /* solvable far away (z1 = 5000), as milp's big-M misses it */
  p = lcp2(1, 0, 0, 1, -5000, 1);
  r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && !r.infeasible_certified,
        "claimed infeasible on an LCP solved by z = (5000, 0): not certified (%s)", r.message);
  cp_destroy(&p);
}

static void test_true_infeasibility(void)
{
  /* w1 + w2 = -1 for every z: y = (1, 1) is a Farkas vector (M'y = 0, q'y = -1) */
  struct cp_problem *p = lcp2(1, -1, -1, 1, 1, -2);
  struct solve_result r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && r.infeasible_certified && strstr(r.message, "certified"),
        "claimed infeasible on an LCP with no feasible z: certified (%s)", r.message);
  cp_destroy(&p);
  /* Feasible (z1 = z2 + 1) yet no complementary solution (w1 > 0 forces z1 = 0, then w2 < 0): infeasible,
   * but no Farkas vector exists, so the harness cannot certify it and must not pretend to. */
  p = lcp2(2, 1, 1, -1, 1, -1);
  r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && !r.infeasible_certified,
        "infeasible only by complementarity: left unverified (%s)", r.message);
  cp_destroy(&p);
  /* mixed LCP: the free row v + 1 = 0 needs v = -1 < 0; y = (-1, 0) certifies it (y free on that row) */
  p = cp_mlcp_create(1, 1);
  p->M[1] = 1.0;
  p->M[3] = 1.0;
  p->q[0] = 1.0;
  r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && r.infeasible_certified,
        "claimed infeasible on a mixed LCP whose equality needs v < 0: certified (%s)", r.message);
  p->q[0] = -1.0; /* now v = 1, u anything: solvable */
  r = lie_on(p, SOLVE_INFEASIBLE, 0.0, 0.0);
  CHECK(r.status == SOLVE_INFEASIBLE && !r.infeasible_certified,
        "claimed infeasible on a solvable mixed LCP: not certified (%s)", r.message);
  cp_destroy(&p);
}

/* The registered solvers that claim infeasibility get the same judgement. */
static void test_registered_claims(void)
{
  struct solver *s = NULL;
  struct solve_result r;
  double z[2] = {0};
  struct cp_problem *p = lcp2(1, -1, -1, 1, 1, -2);
  const char *const names[] = {"enum", "milp"};
  for (int k = 0; k < 2; k++) {
    if (solver_create(names[k], &s, NULL, 0) != 0) {
      CHECK(0, "%s: created", names[k]);
      solver_destroy(&s);
      continue;
    }
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_INFEASIBLE && r.infeasible_certified,
          "%s on an LCP with no feasible z: infeasible, certified (%s: %s)", names[k],
          solve_status_name(r.status), r.message);
    solver_destroy(&s);
  }
  cp_destroy(&p);
  p = lcp2(1, 0, 0, 1, -5000, 1); /* beyond -milp_bound 1e3 */
  if (solver_create("milp", &s, NULL, 0) == 0) {
    solver_solve(s, p, z, &r);
    CHECK(r.status != SOLVE_INFEASIBLE || !r.infeasible_certified,
          "milp: a solution beyond its bound is never certified infeasible (%s: %s)",
          solve_status_name(r.status), r.message);
  } else
    CHECK(0, "milp: created");
  solver_destroy(&s);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_false_convergence();
  test_false_infeasibility();
  test_true_infeasibility();
  test_registered_claims();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
