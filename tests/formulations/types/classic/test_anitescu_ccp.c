/* test_anitescu_ccp.c — the cone complementarity relaxation (anitescu_ccp, Anitescu 2006) against known
 * answers. A ball sliding on a plane (3D; and a disc on a line, 2D), one contact, W_NT = 0: the relaxation
 * assembles coulomb_cone's W and q exactly, flagged relaxed; its one-step answer is the closed form of a
 * sliding contact of the relaxation, r on the cone's edge opposing u_T and u on the dual cone's edge
 * (r'u = 0): u_N = mu |u_T| and r_N = (mu |q_T| - q_N) / (W_NN + mu^2 W_TT) — where Coulomb's law has u_N = 0
 * and r_N = -q_N / W_NN. fc_nsgs and fc_admm reach it; fc_newton and a Siconos backend answer
 * not_applicable. On the 20-degree incline with mu = 0.5 the box sticks as with Coulomb (drift < 1e-6 m in
 * 1 s); past the friction angle it slides (the relaxation's hop makes it slower than Coulomb's a, within 1%
 * here). */
#include "check.h"
#include "cp_fc.h"
#include "formulation.h"
#include "geom3d.h"
#include "hull3d.h"
#include "run.h"
#include "solver.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* A ball (3D; a disc in 2D) of radius 0.5, mass 1, resting on the ground, sliding with v_t = (1, 0.3). */
static struct world *sliding_ball(int dim)
{
  struct world *w = world_create(dim);
  double n[3] = {0, 0, 1}, c[3] = {0, 0, 0}, r = 0.5, m = 1.0;
  int g = world_add_body(w, 1, 0.0, 0.0);
  if (dim == 3)
    world_add_plane(w, g, n, 0.0);
  else
    world_add_halfplane(w, g, 0.0, 1.0, 0.0);
  int b = world_add_body(w, 0, m, (dim == 3 ? 0.4 : 0.5) * m * r * r);
  if (dim == 3)
    world_add_sphere(w, b, c, r);
  else
    world_add_disc(w, b, 0.0, 0.0, r);
  w->bodies[b].x[dim - 1] = r;
  w->bodies[b].v[0] = 1.0;
  if (dim == 3) w->bodies[b].v[1] = 0.3;
  w->mu = 0.3;
  w->threshold = 0.05;
  world_finalize(w);
  return w;
}

static struct cp_problem *assemble(const char *name, const struct world *w, double h)
{
  struct formulation *f = NULL;
  struct contact_set cs = {0};
  struct cp_problem *p = NULL;
  if (formulation_create(name, &f, NULL, 0) == 0 && world_detect(w, w->threshold, &cs) == 0)
    f->type->assemble(f, w, &cs, h, &p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  return p;
}

/* Solves p with solver; 0 with the answer in r (p->n entries) and the status in *status. */
static int solve(const char *solver, const struct cp_problem *p, double *r, enum solve_status *status)
{
  struct solver *s = NULL;
  struct solve_result res = {.status = SOLVE_NUMERICAL_FAILURE};
  int rc = solver_create(solver, &s, NULL, 0) || solver_solve(s, p, r, &res);
  *status = res.status;
  solver_destroy(&s);
  return rc;
}

static void test_one_step(int dim)
{
  struct world *w = sliding_ball(dim);
  const double h = 0.01, mu = 0.3;
  struct cp_problem *cc = assemble("coulomb_cone", w, h), *ccp = assemble("anitescu_ccp", w, h);
  int d = dim;
  if (!cc || !ccp || ccp->n != d) {
    CHECK(0, "%dD: both formulations assemble one contact", dim);
    goto done;
  }
  CHECK(ccp->kind == CP_FC && ccp->fc_relaxed == 1 && cc->fc_relaxed == 0 && ccp->mu[0] == mu &&
            cp_data_max_diff(ccp, cc->M, cc->q) == 0.0,
        "%dD: the relaxation's W, q and mu are coulomb_cone's, flagged relaxed", dim);
  const double *W = ccp->M, *q = ccp->q;
  double qt = dim == 3 ? hypot(q[1], q[2]) : fabs(q[1]), Wtt = W[d + 1];
  double rn = (mu * qt - q[0]) / (W[0] + mu * mu * Wtt);
  CHECK(q[0] < 0.0 && fabs(W[1]) < 1e-15 && qt > mu * Wtt * rn, "%dD: a pressing, sliding contact (q_N %g)",
        dim, q[0]);
  static const char *const solvers[] = {"fc_nsgs", "fc_admm"};
  for (int k = 0; k < 2; k++) {
    double r[3] = {0, 0, 0}, u[3] = {0, 0, 0};
    enum solve_status st;
    int rc = solve(solvers[k], ccp, r, &st);
    for (int i = 0; i < d; i++) {
      u[i] = q[i];
      for (int j = 0; j < d; j++)
        u[i] += W[i * d + j] * r[j];
    }
    double ut = dim == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
    CHECK(!rc && st == SOLVE_CONVERGED && fabs(r[0] - rn) < 1e-7 * rn,
          "%dD %s: r_N = %.10g, the relaxation's closed form %.10g (Coulomb's: %.6g)", dim, solvers[k], r[0],
          rn, -q[0] / W[0]);
    CHECK(fabs(u[0] - mu * ut) < 1e-7 && u[0] > 1e-3,
          "%dD %s: the sliding contact separates, u_N = %.6g = mu |u_T| (%.6g)", dim, solvers[k], u[0],
          mu * ut);
  }
  static const char *const refuse[] = {"fc_newton", "siconos_fc_nsgs"};
  for (int k = 0; k < 2; k++) {
    double r[3] = {0, 0, 0};
    enum solve_status st = SOLVE_CONVERGED;
    if (!solver_find(refuse[k])) {
      check_skip("%s not built here", refuse[k]);
      continue;
    }
    CHECK(solve(refuse[k], ccp, r, &st) == 0 && st == SOLVE_NOT_APPLICABLE,
          "%dD %s: not_applicable on the relaxation (it solves Coulomb's law)", dim, refuse[k]);
  }
done:
  cp_destroy(&cc);
  cp_destroy(&ccp);
  world_destroy(&w);
}

/* A box (half extents 0.2, 0.15, 0.1, mass 2) resting on an incline of theta degrees, mu; 1 s with h = 1e-3:
 * the displacement along the slope, and in *v the velocity along it. */
static double incline_run(double theta_deg, double mu, int *failed, double *v)
{
  double th = theta_deg * M_PI / 180.0, n[3] = {-sin(th), 0, cos(th)}, z[3] = {0, 0, 1}, axis[3];
  double down[3] = {-cos(th), 0, -sin(th)}, x0[3], dx[3] = {0, 0, 0};
  struct world *w = world_create(3);
  struct polyhedron *box = hull3d_box(0.2, 0.15, 0.1);
  world_add_plane(w, world_add_body(w, 1, 0.0, 0.0), n, 0.0);
  int b = world_add_body(w, 0, 2.0, 1.0);
  hull3d_central_inertia(box, 2.0, w->bodies[b].inertia3);
  world_add_polyhedron(w, b, box);
  vec3_cross(z, n, axis);
  quat_from_axis_angle(axis, acos(vec3_dot(z, n)), w->bodies[b].q);
  vec3_scale(n, 0.1, w->bodies[b].x);
  w->mu = mu;
  w->threshold = 0.01;
  world_finalize(w);
  vec3_scale(w->bodies[b].x, 1.0, x0);
  struct simulation sim = {.w = w};
  struct run_summary sum;
  *failed = -1;
  if (formulation_create("anitescu_ccp", &sim.f, NULL, 0) == 0 &&
      solver_create("fc_nsgs", &sim.s, NULL, 0) == 0 && stepper_create(&sim.st) == 0 &&
      simulation_run(&sim, 1e-3, 1000, NULL, 0, &sum) == 0)
    *failed = (int)sum.failed_steps;
  vec3_sub(w->bodies[b].x, x0, dx);
  *v = vec3_dot(w->bodies[b].v, down);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
  return vec3_dot(dx, down);
}

static void test_incline(void)
{
  int failed = 0;
  double a = 0.0, s = incline_run(20.0, 0.5, &failed, &a);
  CHECK(failed == 0 && fabs(s) < 1e-6, "incline 20 deg mu 0.5: sticks as with Coulomb (drift %g m)", s);
  double th = 30.0 * M_PI / 180.0, a_exact = 9.81 * (sin(th) - 0.3 * cos(th));
  incline_run(30.0, 0.3, &failed, &a); /* a = v / t at t = 1 s */
  CHECK(failed == 0 && a < a_exact && a > 0.99 * a_exact,
        "incline 30 deg mu 0.3: slides, a = %.6g below Coulomb's %.6g by %.2e (the relaxation's hop)", a,
        a_exact, (a_exact - a) / a_exact);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_one_step(3);
  test_one_step(2);
  test_incline();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
