/* test_quasi_rigid.c — the quasi-rigid mixed NCP (Chakraborty, Berard, Akella & Trinkle, eqs. (33)-(38); the
 * disc on the quasi-rigid half-plane = eqs. (48)-(55)): the analytic Jacobian against central finite
 * differences at random states (a disc near a tilted compliant half-plane; a disc on a moving disc; both also
 * with friction, whose physics tests/formulations/types/implicit/test_quasi_rigid_friction.c checks), then
 * the drop of Sec. 6.3 (unit disc from y = 1.5, k = 1000, no damping) with delta_max = 1: first contact at
 * t = sqrt(2 * 0.5 / g) within a step, the largest deflection near the undamped spring's
 * mg/k + sqrt((mg/k)^2 + m v^2 / k) (backward Euler damps it a little), the rigid core never reached; and
 * the 3D form (quasi_rigid.c's qr_rows3): its Jacobian, also with friction (e_t, e_o, e_r; the physics is in
 * tests/formulations/types/implicit/test_quasi_rigid_friction.c), and a sphere's drop that repeats the disc's
 * to rounding. */
#include "check.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "run.h"
#include "scenes.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* opts: the formulation's option / value pairs (NULL: its defaults) */
static void check_jacobian(struct world *w, const char *what, const char *const *opts, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, "quasi_rigid", opts, rng, &nc);
  CHECK(worst < 1e-6, "quasi_rigid %s: %d contacts, analytic Jacobian = finite differences (%.1e)", what, nc,
        worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 53);
  struct world *w = world_create(2);
  int g = world_add_body(w, 1, 0, 0);
  world_add_halfplane(w, g, -sin(0.3), cos(0.3), 0.1);
  int b = world_add_body(w, 0, 1.3, 0.4);
  world_add_disc(w, b, 0.1, -0.05, 0.8);
  world_finalize(w);
  w->threshold = 1.0;
  struct body *bd = &w->bodies[b];
  bd->x[0] = 0.2, bd->x[1] = 1.0, bd->theta = 0.7, bd->v[0] = -1.2, bd->v[1] = 0.4, bd->w[2] = 2.1;
  check_jacobian(w, "disc on a tilted compliant half-plane", NULL, rng);
  w->mu = 0.4; /* the friction rows (21)-(22) of quasi_rigid.c's qr_friction_rows */
  check_jacobian(w, "disc on a tilted compliant half-plane, mu 0.4", NULL, rng);
  world_destroy(&w);
  /* a disc on a moving disc (the compliant one is the contact's body b), both dynamic, far from the ground */
  w = scene_disc_on_line(1.0, 1.0, 5.0, 0.0);
  int b2 = world_add_body(w, 0, 2.0, 0.9);
  world_add_disc(w, b2, 0.05, 0.1, 0.7);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[b2].x[0] = 1.2, w->bodies[b2].x[1] = 6.2, w->bodies[b2].theta = -0.4;
  w->bodies[b2].v[0] = 0.5, w->bodies[b2].w[2] = -1.5, w->bodies[1].w[2] = 0.8;
  check_jacobian(w, "disc on a moving disc", NULL, rng);
  w->mu = 0.7; /* both sides' velocities and poses enter v_t and the lever arms */
  check_jacobian(w, "disc on a moving disc, mu 0.7", NULL, rng);
  world_destroy(&w);
  gsl_rng_free(rng);
}

static void test_drop(void)
{
  struct world *w = scene_disc_on_line(1.0, 1.0, 1.5, 0.0);
  w->threshold = 2.0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton", OPTS("-quasi_rigid_delta_max", "1"));
  double h = 1e-3, t_contact = NAN, dmax = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 600; k++) {
    struct run_summary sum;
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    double delta = 1.0 - w->bodies[1].x[1];
    if (delta > 0 && isnan(t_contact)) t_contact = w->t;
    dmax = fmax(dmax, delta);
  }
  double g = 9.81, tc = sqrt(2 * 0.5 / g), v = sqrt(2 * g * 0.5), de = g / 1000.0;
  double amax = de + sqrt(de * de + v * v / 1000.0);
  CHECK(ok && failed == 0, "quasi-rigid drop: 600 steps solved (%ld failed)", failed);
  CHECK(fabs(t_contact - tc) <= 2 * h, "quasi-rigid drop: first contact at %.4f s (free fall: %.4f s)",
        t_contact, tc);
  CHECK(fabs(dmax - amax) / amax < 0.05 && dmax < 1.0,
        "quasi-rigid drop: largest deflection %.5f m (undamped spring %.5f m), core not reached", dmax, amax);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

/* The core impact of Sec. 6.3 at the paper's h = 1e-4 (delta_max = 0.05): our semismooth Newton solves
 * every step through the impact (it stalled at a residual of 9e-5 on the impact step before the length
 * rows were scaled by 1/h), the disc stops at the core (delta = delta_max to 1e-9) and the energy lost
 * over the impact is m v_i^2 / 2 = 4.1455 J (analytic) within 1 %. */
static void test_core_impact(void)
{
  struct world *w = scene_disc_on_line(1.0, 1.0, 1.5, 0.0);
  w->threshold = 2.0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton", OPTS("-quasi_rigid_delta_max", "0.05"));
  double h = 1e-4, dmax = 0.0, e_start = NAN, e_end = NAN;
  long failed = 0;
  for (int k = 0; ok && k < 3370; k++) {
    struct run_summary sum;
    double y = w->bodies[1].x[1], d0 = fmax(0.0, 1.0 - y);
    double e0 = world_kinetic_energy(w) + 9.81 * y + 500.0 * d0 * d0;
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    double d = fmax(0.0, 1.0 - w->bodies[1].x[1]);
    double e = world_kinetic_energy(w) + 9.81 * w->bodies[1].x[1] + 500.0 * d * d;
    if (d >= 0.05 - 1e-6 && e0 - e > 0.01) {
      if (isnan(e_start)) e_start = e0;
      e_end = e;
    }
    dmax = fmax(dmax, d);
  }
  CHECK(ok && failed == 0, "quasi-rigid core impact, h = 1e-4: 3370 steps solved by fb_newton (%ld failed)",
        failed);
  CHECK(fabs(dmax - 0.05) < 1e-9, "quasi-rigid core impact: largest deflection %.12f (delta_max 0.05)", dmax);
  CHECK(fabs((e_start - e_end) - 4.1455) / 4.1455 < 0.01,
        "quasi-rigid core impact: %.4f J lost (analytic m v_i^2 / 2 = 4.1455 J)", e_start - e_end);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

/* 3D (quasi_rigid.c's qr_rows3): the analytic Jacobian against finite differences for a sphere near a tilted
 * compliant plane and a sphere on a moving sphere at random poses and velocities; then the drop of Sec. 6.3
 * in 3D (a unit sphere, m = 1, from z = 1.5 onto the compliant plane z <= 0, delta_max = 1): the same
 * vertical motion as the 2D disc, step for step (the sphere's height equals the disc's to rounding). */
static void test_3d(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 71);
  struct world *w = world_create(3);
  int g = world_add_body(w, 1, 0, 0);
  const double np[3] = {sin(0.3), -0.2, cos(0.3)}, c0[3] = {0.1, -0.05, 0.02}, cz[3] = {0, 0, 0};
  world_add_plane(w, g, np, 0.1);
  int b = world_add_body(w, 0, 1.3, 0.4);
  world_add_sphere(w, b, c0, 0.8);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b].x[2] = 0.95;
  random_body_motion(&w->bodies[b], rng);
  check_jacobian(w, "3D: sphere on a tilted compliant plane", NULL, rng);
  /* with friction (implicit_friction3.h's rows (21)-(22) on p_ns + p_nr): e = 1, then an uneven ellipsoid */
  w->mu = 0.4;
  check_jacobian(w, "3D: sphere on a tilted compliant plane, mu 0.4", NULL, rng);
  const char *const *e = OPTS("-quasi_rigid_et", "0.8", "-quasi_rigid_eo", "1.3", "-quasi_rigid_er", "0.35");
  check_jacobian(w, "3D: sphere on a tilted compliant plane, mu 0.4, e = (0.8, 1.3, 0.35)", e, rng);
  world_destroy(&w);
  w = world_create(3);
  int b1 = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, b1, cz, 1.0);
  int b2 = world_add_body(w, 0, 2.0, 0.9);
  world_add_sphere(w, b2, c0, 0.7);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b2].x[0] = 1.2, w->bodies[b2].x[1] = 0.5, w->bodies[b2].x[2] = 0.9;
  random_body_motion(&w->bodies[b1], rng);
  random_body_motion(&w->bodies[b2], rng);
  check_jacobian(w, "3D: sphere on a moving sphere", e, rng);
  w->mu = 0.7; /* both sides' velocities and poses enter the sliding velocities and the lever arms */
  check_jacobian(w, "3D: sphere on a moving sphere, mu 0.7, e = (0.8, 1.3, 0.35)", e, rng);
  check_jacobian(w, "3D: sphere on a moving sphere, mu 0.7", NULL, rng);
  world_destroy(&w);
  gsl_rng_free(rng);
  /* the drop, 2D disc and 3D sphere side by side */
  struct world *w2 = scene_disc_on_line(1.0, 1.0, 1.5, 0.0), *w3 = world_create(3);
  w2->threshold = 2.0;
  const double up[3] = {0, 0, 1};
  world_add_plane(w3, world_add_body(w3, 1, 0, 0), up, 0.0);
  world_add_sphere(w3, world_add_body(w3, 0, 1.0, 0.4), cz, 1.0);
  world_finalize(w3);
  w3->bodies[1].x[2] = 1.5;
  w3->threshold = 2.0;
  struct simulation s2, s3;
  const char *const *run_opts = OPTS("-quasi_rigid_delta_max", "1");
  int ok = 1;
  struct simulation *sims[2] = {&s2, &s3};
  for (int k = 0; k < 2; k++)
    ok = test_sim_open(sims[k], k ? w3 : w2, "quasi_rigid", "fb_newton", run_opts) && ok;
  double worst = 0.0, dmax = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 600; k++) {
    struct run_summary a = {0}, c = {0};
    if (simulation_run(&s2, 1e-3, 1, NULL, 0, &a) || simulation_run(&s3, 1e-3, 1, NULL, 0, &c)) ok = 0;
    failed += a.failed_steps + c.failed_steps;
    worst = fmax(worst, fabs(w3->bodies[1].x[2] - w2->bodies[1].x[1]));
    dmax = fmax(dmax, 1.0 - w3->bodies[1].x[2]);
  }
  CHECK(
      ok && failed == 0 && worst < 1e-9 && dmax > 0.1,
      "quasi-rigid drop in 3D: 600 steps (%ld failed), the sphere's height = the 2D disc's to %.1e, largest "
      "deflection %.5f m",
      failed, worst, dmax);
  /* the carried state round trip in 3D: a fresh formulation given the run's state assembles the same
   * problem (the same F at the same unknowns, bit for bit) */
  double *carry = NULL;
  int nc = 0, same = 0;
  struct formulation *f2 = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p1 = NULL, *p2 = NULL;
  int made = (f2 = test_formulation("quasi_rigid", run_opts)) != NULL; /* the run's options */
  if (ok && made && formulation_carry_get(s3.f, &carry, &nc) == 0 && nc > 1 &&
      formulation_carry_set(f2, carry, nc) == 0 && f2->type->detect(f2, w3, 1e-3, &cs) == 0 &&
      s3.f->type->assemble(s3.f, w3, &cs, 1e-3, &p1) == 0 &&
      f2->type->assemble(f2, w3, &cs, 1e-3, &p2) == 0 && p1->n == p2->n) {
    double *z = calloc((size_t)p1->n, sizeof *z), *F1 = calloc((size_t)p1->n, sizeof *F1),
           *F2 = calloc((size_t)p1->n, sizeof *F2);
    same = z && F1 && F2 && cp_eval_F(p1, z, F1) == 0 && cp_eval_F(p2, z, F2) == 0 &&
           memcmp(F1, F2, (size_t)p1->n * sizeof *F1) == 0;
    free(z), free(F1), free(F2);
  }
  CHECK(same, "quasi_rigid 3D: the carried state (%d values) rebuilds the step's problem bit for bit", nc);
  free(carry);
  cp_destroy(&p1);
  cp_destroy(&p2);
  contact_set_free(&cs);
  formulation_destroy(&f2);
  for (int k = 0; k < 2; k++) {
    sims[k]->w = NULL;
    simulation_close(sims[k]);
  }
  world_destroy(&w2);
  world_destroy(&w3);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_jacobians();
  test_drop();
  test_core_impact();
  test_3d();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
