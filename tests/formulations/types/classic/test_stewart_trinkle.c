/* test_stewart_trinkle.c — known answers for the Stewart-Trinkle LCP (Egan et al. eqs. 5-7) through the
 * stepper, solved by Lemke: a disc dropped on a line comes to rest without penetrating beyond the
 * stabilisation tolerance; a block on a 2D incline sticks (tan theta <= mu: drift < 1e-9 after 1 s) or
 * slides with a = g (sin theta - mu cos theta) (1e-6 relative, h = 1e-3); a rolling N-gon loses kinetic
 * energy, less as N grows (Chakraborty et al. Sec. 6.1: m = 1, r = 1, mu = 0.4, nu0 = (-3, 0, 3),
 * h = 0.01, 2 s); a stack of 5 boxes stays at rest. */
#include "check.h"
#include "formulation.h"
#include "run.h"
#include "scenes.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>

static const char *solver_name = "lemke";

/* Runs `steps` steps; returns the number of failed solves (or -1 on a stepper error). */
static int run(struct world *w, const char *form, double h, int steps, double *max_pen)
{
  /* the caller keeps w: the simulation borrows it for the run loop */
  struct simulation sim = {.w = w};
  struct run_summary sum;
  int failed = -1;
  if (max_pen) *max_pen = 0.0;
  if (formulation_create(form, &sim.f, NULL, 0) || solver_create(solver_name, &sim.s, NULL, 0) ||
      stepper_create(&sim.st) || simulation_run(&sim, h, steps, NULL, 0, &sum))
    goto cleanup;
  failed = (int)sum.failed_steps;
  if (max_pen) *max_pen = sum.max_penetration;
cleanup:
  sim.w = NULL;
  simulation_close(&sim);
  return failed;
}

static void test_disc_on_line(void)
{
  struct world *w = scene_disc_on_line(0.5, 1.0, 1.0, 0.3);
  double pen = NAN; /* run leaves it unset when the set-up fails */
  w->threshold = 0.05;
  int failed = run(w, "stewart_trinkle", 0.01, 200, &pen);
  const struct body *b = &w->bodies[1];
  CHECK(failed == 0, "disc on line: every solve converged (%d failed)", failed);
  CHECK_CLOSE(b->x[1], 0.5, 1e-6, "disc on line: rests on the line (y = %.12g)", b->x[1]);
  CHECK(fabs(b->v[1]) < 1e-9, "disc on line: at rest (vy = %g)", b->v[1]);
  /* dropped from 0.5 m, vy ~ -3.1 at impact; psi/h lets it reach the line within one step */
  CHECK(pen < 1e-9, "disc on line: no penetration at step starts (max %g)", pen);
  world_destroy(&w);
}

static double slope_position(const struct world *w, double theta)
{
  const struct body *b = &w->bodies[1];
  return b->x[0] * cos(theta) + b->x[1] * sin(theta);
}

static void test_incline(double theta_deg, double mu)
{
  double theta = theta_deg * M_PI / 180.0, h = 1e-3, g = 9.81;
  struct world *w = scene_incline_2d(theta, mu, 0.4, 0.2, 2.0);
  w->threshold = 0.01;
  double s0 = slope_position(w, theta);
  int failed = run(w, "stewart_trinkle", h, 1000, NULL);
  const struct body *b = &w->bodies[1];
  double vs = b->v[0] * cos(theta) + b->v[1] * sin(theta), ds = slope_position(w, theta) - s0;
  CHECK(failed == 0, "incline %g deg mu %g: every solve converged (%d failed)", theta_deg, mu, failed);
  if (tan(theta) <= mu) {
    CHECK(fabs(ds) < 1e-9, "incline %g deg mu %g: sticks (drift %g after 1 s)", theta_deg, mu, ds);
  } else {
    double a = -vs / (1000 * h), exact = g * (sin(theta) - mu * cos(theta));
    CHECK(fabs(a - exact) <= 1e-6 * exact, "incline %g deg mu %g: a = %.12g vs %.12g (rel %.2e)", theta_deg,
          mu, a, exact, fabs(a - exact) / exact);
  }
  CHECK(fabs(b->w[2]) < 1e-9, "incline %g deg mu %g: does not rotate (omega %g)", theta_deg, mu, b->w[2]);
  world_destroy(&w);
}

static double ngon_loss(int n)
{
  const double nu0[3] = {-3.0, 0.0, 3.0};
  struct world *w = scene_ngon(n, 1.0, 1.0, 0.4, nu0);
  w->threshold = 0.01;
  double k0 = world_kinetic_energy(w);
  int failed = run(w, "stewart_trinkle", 0.01, 200, NULL);
  double loss = k0 - world_kinetic_energy(w);
  CHECK(failed == 0, "N-gon %d: every solve converged (%d failed)", n, failed);
  printf("# N-gon %4d: kinetic energy %.6f -> %.6f (loss %.6f)\n", n, k0, k0 - loss, loss);
  world_destroy(&w);
  return loss;
}

static void test_ngon(void)
{
  double l10 = ngon_loss(10), l100 = ngon_loss(100), l1000 = ngon_loss(1000);
  CHECK(l10 > 0.0 && l100 > 0.0 && l1000 > 0.0, "N-gon: kinetic energy is lost (%g, %g, %g)", l10, l100,
        l1000);
  CHECK(l10 > l100 && l100 > l1000, "N-gon: loss decreases with N (%g > %g > %g)", l10, l100, l1000);
}

static void test_stack(const char *form, double taper)
{
  struct world *w = scene_box_stack(5, 1.0, 0.5, 1.0, 0.5, taper);
  w->threshold = 0.01;
  int failed = run(w, form, 0.01, 100, NULL);
  double moved = 0.0;
  for (int i = 1; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    double d =
        fabs(b->x[0]) + fabs(b->x[1] - 0.5 * (i - 0.5)) + fabs(b->theta) + fabs(b->v[0]) + fabs(b->v[1]);
    if (d > moved) moved = d;
  }
  CHECK(failed == 0, "%s stack of 5 (taper %g): every solve converged (%d failed)", form, taper, failed);
  CHECK(moved < 1e-6, "%s stack of 5 (taper %g): stays at rest (max displacement %g after 1 s)", form, taper,
        moved);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find(solver_name)) solver_name = "pgs";
  test_disc_on_line();
  test_incline(20.0, 0.5);
  test_incline(30.0, 0.3);
  test_incline(15.0, 0.1);
  test_ngon();
  test_stack("stewart_trinkle", 0.1);
  test_stack("stewart_trinkle", 0.0);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
