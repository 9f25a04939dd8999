/* test_tzitzouris_pang.c — the closed-form geometrically implicit step of Tzitzouris and Pang (Trinkle,
 * Tzitzouris & Pang 2001; friction Chakraborty et al. eqs. (5), (21)-(22)): the analytic Jacobian against
 * central finite differences at random states (an off-centre sphere near a tilted plane, two moving spheres
 * on the ground, the sphere on two spheres of Chakraborty et al. Sec. 6.2); a pair without a closed-form
 * distance (sphere on a superellipsoid) refused naming the pair; with the semismooth Newton solver a unit
 * sphere resting on the plane stays, one dropped from 0.5 above it lands at the free-fall time
 * sqrt(2 H / g) within a step and comes to rest; on the sphere on two spheres (h = 0.01, 4 s, the Sec. 6.2
 * world) it reaches the states of geometric_implicit at every step (for spheres both are one model: the KKT
 * points of (15)-(19) are the closed-form points) with 5 unknowns per contact instead of 13. */
#include "check.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "run.h"
#include "scene.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double CZ[3] = {0, 0, 0};

static void check_jacobian(struct world *w, const char *what, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, "tzitzouris_pang", NULL, rng, &nc);
  CHECK(worst < 1e-6, "tzitzouris_pang %s: %d contacts, analytic Jacobian = finite differences (%.1e)", what,
        nc, worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 71);
  /* a sphere off-centre in its body (the centre moves with omega) near a tilted static plane */
  struct world *w = fd_sphere_near_tilted_plane(rng);
  check_jacobian(w, "off-centre sphere near a tilted plane", rng);
  world_destroy(&w);
  /* two moving spheres on the ground: sphere-sphere with both bodies dynamic, and sphere-plane */
  const double c0[3] = {0.1, -0.05, 0.02};
  w = fd_two_spheres_on_ground(c0, rng);
  check_jacobian(w, "two moving spheres on the ground", rng);
  world_destroy(&w);
  char msg[256] = "";
  if (scene_create_from_spec("sphere_two_spheres", NULL, &w, msg, sizeof msg) == 0) {
    random_body_motion(&w->bodies[2], rng);
    check_jacobian(w, "sphere on two spheres (Chakraborty et al. Sec. 6.2)", rng);
  } else
    CHECK(0, "sphere_two_spheres scene: %s", msg);
  world_destroy(&w);
  gsl_rng_free(rng);
}

/* A sphere touching a superellipsoid: no closed-form distance, refused at assembly naming both shapes. */
static void test_refusal(void)
{
  struct world *w = world_create(3);
  const double a[3] = {1.0, 0.8, 0.6}, q[4] = {1, 0, 0, 0};
  int g = world_add_body(w, 1, 0, 0);
  int se = world_add_superellipsoid(w, g, CZ, q, a, 4, NULL, 0);
  int b = world_add_body(w, 0, 1.0, 0.4);
  int sp = world_add_sphere(w, b, CZ, 0.5);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[b].x[2] = 1.2;
  struct formulation *f = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  int rc = formulation_create("tzitzouris_pang", &f, NULL, 0) == 0 && f->type->detect(f, w, 0.01, &cs) == 0
               ? f->type->assemble(f, w, &cs, 0.01, &p)
               : -1;
  const char *m = f ? f->message : "";
  char names[64];
  snprintf(names, sizeof names, "shapes %d (superellipsoid) and %d (sphere)", se, sp);
  CHECK(rc > 0 && p == NULL && cs.n == 1 && strstr(m, names) && strstr(m, "sphere-plane"),
        "tzitzouris_pang: a sphere on a superellipsoid is refused naming the pair (%s)", m);
  CHECK(f && !formulation_supports(f, w), "tzitzouris_pang: a world with a superellipsoid is not supported");
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

static int open_sim(struct simulation *sim, struct world *w, const char *form)
{
  memset(sim, 0, sizeof *sim);
  sim->w = w;
  return formulation_create(form, &sim->f, NULL, 0) || solver_create("fb_newton", &sim->s, NULL, 0) ||
         stepper_create(&sim->st);
}

static void close_sim(struct simulation *sim)
{
  sim->w = NULL;
  simulation_close(sim);
}

static void test_rest_and_drop(void)
{
  struct world *w = fd_sphere_on_plane(1.0, 0.3);
  struct simulation sim;
  struct run_summary sum;
  int rc = open_sim(&sim, w, "tzitzouris_pang") || simulation_run(&sim, 0.01, 100, NULL, 0, &sum);
  const struct body *b = &w->bodies[1];
  CHECK(rc == 0 && sum.failed_steps == 0 && fabs(b->x[2] - 1.0) < 1e-9 && fabs(b->v[2]) < 1e-9 &&
            hypot(b->x[0], b->x[1]) < 1e-12,
        "tzitzouris_pang: a sphere resting on the plane stays (1 s, z - r = %.1e, vz = %.1e)", b->x[2] - 1.0,
        b->v[2]);
  close_sim(&sim);
  world_destroy(&w);
  /* dropped from H = 0.5 above the plane: lands at sqrt(2 H / g) = 0.3193 s within a step, then rests */
  const double H = 0.5, h = 0.01, t_fall = sqrt(2.0 * H / 9.81);
  w = fd_sphere_on_plane(1.0 + H, 0.3);
  b = &w->bodies[1];
  rc = open_sim(&sim, w, "tzitzouris_pang");
  double t_land = -1.0;
  for (int k = 0; rc == 0 && k < 100; k++) {
    rc = simulation_run(&sim, h, 1, NULL, 0, &sum) || sum.failed_steps;
    if (t_land < 0 && b->x[2] < 1.0 + 1e-9) t_land = (k + 1) * h;
  }
  CHECK(rc == 0 && fabs(t_land - t_fall) <= h,
        "tzitzouris_pang: a sphere dropped from 0.5 lands at %.2f s, free fall %.4f s (within h = %.2f)",
        t_land, t_fall, h);
  CHECK(rc == 0 && fabs(b->x[2] - 1.0) < 1e-9 && fabs(b->v[2]) < 1e-9,
        "tzitzouris_pang: the dropped sphere rests on the plane at 1 s (z - r = %.1e, vz = %.1e)",
        b->x[2] - 1.0, b->v[2]);
  close_sim(&sim);
  world_destroy(&w);
}

/* The sphere on two spheres of Chakraborty et al. Sec. 6.2 (mu = 0.2, e = (1, 1, 0.3)) through both
 * formulations in lockstep at h = 0.01 and the solver tolerance tol for up to `steps` steps: the largest
 * difference of the sphere's position and velocity (over the steps both solved), the first failed step of
 * each (-1: none), and the unknowns of the first step. */
struct lockstep {
  double dx, dv, vmax;
  int failed[2], rows[2];
};

static int lockstep(const char *tol, int steps, struct lockstep *out)
{
  const char *forms[2] = {"tzitzouris_pang", "geometric_implicit"};
  const char *er[2] = {"-tzitzouris_pang_er", "-geometric_implicit_er"};
  struct world *w[2] = {NULL, NULL};
  struct simulation sim[2];
  struct run_summary sum;
  char msg[256] = "";
  int rc = 0;
  memset(out, 0, sizeof *out);
  memset(sim, 0, sizeof sim);
  for (int k = 0; k < 2; k++) {
    out->failed[k] = -1;
    rc = rc || scene_create_from_spec("sphere_two_spheres", NULL, &w[k], msg, sizeof msg) ||
         open_sim(&sim[k], w[k], forms[k]) ||
         formulation_set_option(sim[k].f, er[k], "0.3", msg, sizeof msg) ||
         solver_set_option(sim[k].s, "-cp_tol", tol, msg, sizeof msg);
  }
  for (int s = 0; rc == 0 && s < steps; s++) {
    for (int k = 0; k < 2 && rc == 0; k++) {
      if (out->failed[k] >= 0) continue;
      rc = simulation_run(&sim[k], 0.01, 1, NULL, 0, &sum);
      if (sum.failed_steps) out->failed[k] = s;
      if (s == 0) out->rows[k] = sim[k].f->rows.total;
    }
    if (out->failed[0] >= 0 || out->failed[1] >= 0) continue;
    const struct body *a = &w[0]->bodies[2], *g = &w[1]->bodies[2];
    for (int i = 0; i < 3; i++) {
      out->dx = fmax(out->dx, fabs(a->x[i] - g->x[i]));
      out->dv = fmax(out->dv, fmax(fabs(a->v[i] - g->v[i]), fabs(a->w[i] - g->w[i])));
      out->vmax = fmax(out->vmax, fabs(g->v[i]));
    }
  }
  for (int k = 0; k < 2; k++) {
    close_sim(&sim[k]);
    world_destroy(&w[k]);
  }
  return rc;
}

/* Both formulations solve the same NCP up to the solver's tolerance: at -cp_tol 1e-12 over the first 3 s
 * (both contacts loaded, contact 2 rolling, contact 1 sliding) the states agree to 1e-8 (measured 1e-9; 1e-7
 * at the default 1e-8); at the default tolerance over the whole 4 s, where the two separations (3.2, 3.7 s)
 * are grazing and amplify the solves' differences, to 1e-4 m and 5e-3 m/s (measured 6e-5, 1.2e-3), every
 * step solved by both (at 1e-12 neither solves the first separation's steps: geometric_implicit fails at step
 * 318, tzitzouris_pang at 327). */
static void test_two_spheres(void)
{
  struct lockstep L;
  int rc = lockstep("1e-12", 300, &L);
  CHECK(rc == 0 && L.rows[0] == 16 && L.rows[1] == 32,
        "sphere on two spheres: %d unknowns (tzitzouris_pang) against %d (the paper's 32)", L.rows[0],
        L.rows[1]);
  CHECK(rc == 0 && L.failed[0] < 0 && L.failed[1] < 0 && L.dx < 1e-8 && L.dv < 1e-8 && L.vmax > 3.0,
        "sphere on two spheres, -cp_tol 1e-12, 3 s: tzitzouris_pang = geometric_implicit (position %.1e, "
        "velocity %.1e; largest speed %.2f)",
        L.dx, L.dv, L.vmax);
  rc = lockstep("1e-8", 400, &L);
  CHECK(rc == 0 && L.failed[0] < 0 && L.failed[1] < 0 && L.dx < 1e-4 && L.dv < 5e-3 && L.vmax > 8.0,
        "sphere on two spheres, -cp_tol 1e-8, 4 s: tzitzouris_pang = geometric_implicit through both "
        "separations (position %.1e, velocity %.1e; largest speed %.2f)",
        L.dx, L.dv, L.vmax);
}

/* The active-set step's safeguard (fb_newton.c, fb_rerun_plain_newton): geometric_implicit at h = 0.03 with
 * -fb_newton_active_set 1 over 4 s; the run with the step fails the step at t = 3.15 s near the first
 * separation (Levenberg-Marquardt crawls), the plain FB Newton run from the same start solves it, so every
 * step is solved (without the step fb_newton fails at t = 3.09 s, README sphere_two_spheres/). */
static void test_active_set_safeguard(void)
{
  struct world *w = NULL;
  struct simulation sim;
  struct run_summary sum = {0};
  char msg[256] = "";
  memset(&sim, 0, sizeof sim);
  int rc = scene_create_from_spec("sphere_two_spheres", NULL, &w, msg, sizeof msg) ||
           open_sim(&sim, w, "geometric_implicit") ||
           formulation_set_option(sim.f, "-geometric_implicit_er", "0.3", msg, sizeof msg) ||
           solver_set_option(sim.s, "-fb_newton_active_set", "1", msg, sizeof msg) ||
           simulation_run(&sim, 0.03, 134, NULL, 0, &sum);
  CHECK(rc == 0 && sum.failed_steps == 0 && w->t > 4.0,
        "sphere on two spheres, geometric_implicit, h = 0.03, -fb_newton_active_set 1: every step solved to "
        "t = %.2f s (%ld failed; a failed run with the active-set step is run again without it) %s",
        w ? w->t : NAN, sum.failed_steps, msg);
  close_sim(&sim);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_jacobians();
  test_refusal();
  test_rest_and_drop();
  test_two_spheres();
  test_active_set_safeguard();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
