/* test_contact_lcp.c — the Stewart-Trinkle test: the frictional LCP (Egan et al. eqs. 5-7) of a box on
 * a plane, 4 contacts, k = 4 friction directions, mu = 0.5, h = 1e-3, built by cp_test_box_lcp. lemke and
 * fb_newton must converge and give the analytic impulses: resting, the normal impulses carry the weight
 * (sum p_n = m g h) with the centre of pressure under the centre of mass and no friction; sliding along a
 * friction direction at 2 m/s, the same normal sum and a net friction impulse -mu m g h along the motion
 * (no tipping since mu c < a). Every other registered solver is run and recorded honestly. */
#include "check.h"
#include "solver.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

enum { K = 4 };
static const double G = 9.81, MU = 0.5, H = 1e-3;

struct impulses {
  double normal_sum, moment_x, moment_y, friction_x, friction_y;
};

/* Sums over one box's contacts: z = (p_n[4], p_f[4K], s[4]); corners (-a,-b), (a,-b), (-a,b), (a,b). */
static struct impulses sum_impulses(const struct cp_test_box *B, const double *z)
{
  struct impulses s = {0};
  double cy = cos(B->yaw), sy = sin(B->yaw);
  for (int i = 0; i < 4; i++) {
    double bx = (i & 1) ? B->a : -B->a, by = (i & 2) ? B->b : -B->b;
    double rx = cy * bx - sy * by, ry = sy * bx + cy * by;
    s.normal_sum += z[i];
    s.moment_x += z[i] * ry;
    s.moment_y += z[i] * rx;
    for (int j = 0; j < K; j++) {
      double th = 2.0 * M_PI * j / K, pf = z[4 + i * K + j];
      s.friction_x += pf * cos(th);
      s.friction_y += pf * sin(th);
    }
  }
  return s;
}

static void run_case(const char *title, const struct cp_test_box *B, int must_solve)
{
  struct cp_problem *p = cp_test_box_lcp(B, 1, K, MU, H);
  CHECK(p && p->n == 4 * (K + 2), "%s: LCP of size 4 (k + 2) = %d", title, 4 * (K + 2));
  double weight = B->mass * G * H, *z = calloc((size_t)p->n, sizeof *z);
  for (int i = 0; solver_registry[i]; i++) {
    const char *name = solver_registry[i]->name;
    int required = must_solve && (!strcmp(name, "lemke") || !strcmp(name, "fb_newton"));
    struct solver *s = NULL;
    struct solve_result r;
    solver_create(name, &s, NULL, 0);
    s->set.tol = 1e-10;
    solver_solve(s, p, z, &r);
    printf("# %s %-20s %-18s it %5d residual %.2e %s\n", title, name, solve_status_name(r.status),
           r.iterations, r.residual, r.message);
    if (required) CHECK(r.status == SOLVE_CONVERGED, "%s: %s converges", title, name);
    if (r.status == SOLVE_CONVERGED && (required || must_solve)) {
      struct impulses m = sum_impulses(B, z);
      CHECK_CLOSE(m.normal_sum, weight, 1e-7 * weight, "%s: %s: normal impulses carry the weight m g h",
                  title, name);
      double fx = B->vx != 0 ? -MU * weight : 0.0;
      CHECK_CLOSE(m.friction_x, fx, 1e-6 * weight, "%s: %s: friction impulse along x", title, name);
      CHECK_CLOSE(m.friction_y, 0.0, 1e-6 * weight, "%s: %s: no friction across the motion", title, name);
      if (B->vx == 0)
        CHECK(fabs(m.moment_x) < 1e-7 * weight && fabs(m.moment_y) < 1e-7 * weight,
              "%s: %s: centre of pressure under the centre of mass", title, name);
    }
    solver_destroy(&s);
  }
  free(z);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  CHECK(solver_find("lemke") && solver_find("fb_newton"), "lemke and fb_newton are registered");
  struct cp_test_box rest = {.a = 0.35, .b = 0.22, .c = 0.15, .mass = 1.7, .yaw = 0.4};
  run_case("resting box", &rest, 1);
  struct cp_test_box slide = {.a = 0.35, .b = 0.22, .c = 0.15, .mass = 1.7, .yaw = 0.0, .vx = 2.0};
  run_case("sliding box", &slide, 1);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
