/* test_anitescu_potra.c — known answers for the mixed LCP of Anitescu-Hart eq. 6 with revolute joints:
 * a simple pendulum (L = 1, theta0 = 0.05 rad, h = 1e-3; revolute joint in 2D, ball joint in 3D) has the
 * small-angle period 2 pi sqrt(L/g) within 1 %, its joint stays closed; a 5-link chain released at 60 degrees
 * keeps every joint within 1e-3 of closed over 2 s; and with contacts it reproduces the incline acceleration
 * a = g (sin - mu cos). */
#include "check.h"
#include "formulation.h"
#include "scenes.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>

static const char *solver_name = "lemke";

struct sim {
  struct formulation *f;
  struct solver *s;
  struct stepper *st;
};

static int sim_open(struct sim *m)
{
  m->f = NULL, m->s = NULL, m->st = NULL;
  return formulation_create("anitescu_potra", &m->f, NULL, 0) || solver_create(solver_name, &m->s, NULL, 0) ||
         stepper_create(&m->st);
}

static void sim_close(struct sim *m)
{
  stepper_destroy(&m->st);
  solver_destroy(&m->s);
  formulation_destroy(&m->f);
}

static void test_pendulum(int dim)
{
  const double L = 1.0, g = 9.81, h = 1e-3;
  struct world *w = dim == 2 ? scene_pendulum_2d(L, 1.0, 0.05) : scene_pendulum_3d(L, 1.0, 0.05);
  struct sim m;
  int failed = 0, crossings = 0;
  double t_first = 0.0, t_last = 0.0, prev = w->bodies[0].x[0], drift = 0.0;
  if (sim_open(&m)) {
    CHECK(0, "pendulum %dD: set up", dim);
    goto cleanup;
  }
  for (int i = 0; i < 8000; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, h, &rec)) break;
    failed += rec.failed;
    double x = w->bodies[0].x[0], e = world_joint_gap(w);
    if (e > drift) drift = e;
    if (prev > 0.0 && x <= 0.0) { /* downward zero crossing, linearly interpolated */
      double t = w->t - h * x / (x - prev);
      if (crossings == 0) t_first = t;
      t_last = t;
      crossings++;
    }
    prev = x;
  }
  double period = crossings > 1 ? (t_last - t_first) / (crossings - 1) : 0.0,
         exact = 2.0 * M_PI * sqrt(L / g);
  CHECK(failed == 0, "pendulum %dD: every solve converged (%d failed)", dim, failed);
  CHECK(fabs(period - exact) < 0.01 * exact, "pendulum %dD: period %.6f vs 2 pi sqrt(L/g) = %.6f (rel %.2e)",
        dim, period, exact, fabs(period - exact) / exact);
  CHECK(drift < 1e-4, "pendulum %dD: joint drift bounded (max %g)", dim, drift);
cleanup:
  sim_close(&m);
  world_destroy(&w);
}

static void test_chain(void)
{
  struct world *w = scene_chain_2d(5, 0.5, 1.0, M_PI / 3);
  struct sim m;
  int failed = 0;
  double drift = 0.0, e0 = world_energy(w);
  if (sim_open(&m)) {
    CHECK(0, "chain: set up");
    goto cleanup;
  }
  for (int i = 0; i < 2000; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, 1e-3, &rec)) break;
    failed += rec.failed;
    double e = world_joint_gap(w);
    if (e > drift) drift = e;
  }
  CHECK(failed == 0, "5-link chain: every solve converged (%d failed)", failed);
  CHECK(drift < 1e-3, "5-link chain: joint drift bounded over 2 s (max %g)", drift);
  CHECK(world_energy(w) <= e0 + 1e-6 * fabs(e0) + 1e-9, "5-link chain: energy does not grow (%g -> %g)", e0,
        world_energy(w));
cleanup:
  sim_close(&m);
  world_destroy(&w);
}

static void test_incline(void)
{
  double theta = 30.0 * M_PI / 180.0, mu = 0.3, h = 1e-3, g = 9.81;
  struct world *w = scene_incline_2d(theta, mu, 0.4, 0.2, 2.0);
  struct sim m;
  int failed = 0;
  w->threshold = 0.01;
  if (sim_open(&m)) {
    CHECK(0, "incline: set up");
    goto cleanup;
  }
  for (int i = 0; i < 1000; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, h, &rec)) break;
    failed += rec.failed;
  }
  const struct body *b = &w->bodies[1];
  double a = -(b->v[0] * cos(theta) + b->v[1] * sin(theta)), exact = g * (sin(theta) - mu * cos(theta));
  CHECK(failed == 0, "incline: every solve converged (%d failed)", failed);
  CHECK(fabs(a - exact) <= 1e-6 * exact, "incline 30 deg mu 0.3: a = %.12g vs %.12g", a, exact);
cleanup:
  sim_close(&m);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find(solver_name)) solver_name = "fb_newton";
  test_pendulum(2);
  test_pendulum(3);
  test_chain();
  test_incline();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
