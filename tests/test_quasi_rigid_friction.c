/* test_quasi_rigid_friction.c — friction in the quasi-rigid mixed NCP (Chakraborty, Berard, Akella & Trinkle,
 * Sec. 5.1 eq. (37) with the ellipsoidal law (21)-(22) of Sec. 3, 2D; its Jacobian is checked in
 * test_quasi_rigid.c): a unit disc (m = 1, r = 1, J = 1/2) launched along
 * the compliant half-plane without spin, which slides and then rolls. Analytic answer, whatever the normal
 * force's history: the friction impulse P stops the slip when v0 - P/m = P r^2 / J, so the disc rolls at
 * v = v0 / (1 + m r^2 / J) = 2 v0 / 3 and has lost m v0^2 / 6 of kinetic energy; with the normal force m g
 * the slip lasts v0 / (3 mu g). A 3D world with friction is not applicable (quasi_rigid3d.c is
 * frictionless), and a frictionless world gives the same problem as before friction existed. */
#include "check.h"
#include "formulation.h"
#include "run.h"
#include "scenes.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static int open_sim(struct simulation *sim, struct world *w, const char *solver)
{
  *sim = (struct simulation){.w = w};
  return formulation_create("quasi_rigid", &sim->f, NULL, 0) == 0 &&
         formulation_set_from_options(sim->f, NULL, 0) == 0 && solver_create(solver, &sim->s, NULL, 0) == 0 &&
         stepper_create(&sim->st) == 0;
}

static void test_slide_then_roll(void)
{
  const double g = 9.81, k = 1000.0, mu = 0.3, v0 = 2.0, h = 1e-3;
  /* resting on the layer at the spring's equilibrium deflection m g / k, critically damped */
  struct world *w = scene_disc_on_line(1.0, 1.0, 1.0 - g / k, mu);
  w->threshold = 0.5;
  w->bodies[1].v[0] = v0;
  PetscOptionsSetValue(NULL, "-quasi_rigid_c", "63");
  struct simulation sim;
  int ok = open_sim(&sim, w, "fb_newton");
  PetscOptionsClearValue(NULL, "-quasi_rigid_c");
  long failed = 0;
  double t_roll = NAN, slip_after = 0.0, e0 = world_kinetic_energy(w);
  for (int s = 0; ok && s < 400; s++) {
    struct run_summary sum;
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    const struct body *b = &w->bodies[1];
    double slip = b->v[0] + b->w[2] * 1.0; /* contact point velocity (rolling: v = -omega r) */
    if (isnan(t_roll) && fabs(slip) < 1e-6) t_roll = w->t;
    if (!isnan(t_roll) && w->t > t_roll + 0.05) slip_after = fmax(slip_after, fabs(slip));
  }
  const struct body *b = &w->bodies[1];
  double t_star = v0 / (3 * mu * g), loss = e0 - world_kinetic_energy(w);
  CHECK(ok && failed == 0, "slide then roll: 400 steps solved by fb_newton (%ld failed)", failed);
  CHECK(fabs(b->v[0] - 2 * v0 / 3) < 2e-3 && fabs(b->w[2] + 2 * v0 / 3) < 2e-3,
        "rolls at v = %.5f m/s, omega r = %.5f (analytic 2 v0 / 3 = %.5f)", b->v[0], -b->w[2], 2 * v0 / 3);
  CHECK(fabs(t_roll - t_star) < 0.02 * t_star + 2 * h,
        "slip ends at %.4f s (analytic v0 / (3 mu g) = %.4f s with the normal force m g)", t_roll, t_star);
  CHECK(slip_after < 1e-6, "no slip once rolling (largest %.1e m/s)", slip_after);
  CHECK(fabs(loss - v0 * v0 / 6) < 5e-3, "kinetic energy lost %.5f J (analytic m v0^2 / 6 = %.5f J)", loss,
        v0 * v0 / 6);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

static void test_applicability(void)
{
  struct formulation *f = NULL;
  int ok = formulation_create("quasi_rigid", &f, NULL, 0) == 0;
  struct world *w3 = world_create(3);
  int g = world_add_body(w3, 1, 0, 0);
  world_add_plane(w3, g, (const double[3]){0, 0, 1}, 0.0);
  int b = world_add_body(w3, 0, 1, 0.4);
  world_add_sphere(w3, b, (const double[3]){0, 0, 0}, 1.0);
  world_finalize(w3);
  w3->mu = 0.2;
  struct world *w2 = scene_disc_on_line(1.0, 1.0, 1.0, 0.2);
  CHECK(ok && !formulation_supports(f, w3) && formulation_supports(f, w2),
        "quasi_rigid with friction: 2D supported, a 3D world with mu > 0 not applicable");
  w3->mu = 0.0;
  CHECK(formulation_supports(f, w3), "a frictionless 3D world stays supported");
  formulation_destroy(&f);
  world_destroy(&w3);
  world_destroy(&w2);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_slide_then_roll();
  test_applicability();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
