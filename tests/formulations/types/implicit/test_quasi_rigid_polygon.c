/* test_quasi_rigid_polygon.c — a polygon as the rigid body R of the quasi-rigid mixed NCP in 2D (Chakraborty,
 * Berard, Akella & Trinkle, Sec. 5.1 eqs. (33)-(38), with R an intersection of half-planes as in Sec. 4.3's
 * (28)-(31): one multiplier l2_q and one gap row -r_q(aR) per edge). Checked: the analytic Jacobian against
 * central differences (a turning box near a tilted compliant half-plane, frictionless and mu = 0.4; a moving
 * box on a static compliant disc); a 1 x 0.5 box (m = 1) dropped flat from 0.5 m onto the layer (k = 1000, no
 * damping, delta_max = 1) moves like the disc of Sec. 6.3 (first contact, largest deflection: the analytic
 * free fall and undamped spring) without turning; dropped on a corner it loses mechanical energy (kinetic +
 * m g y + k delta^2 / 2) only by backward Euler's O(h) damping, and with delta_max = 0.05 its corner stops at
 * the core; damped (c = 20) a box placed flat or dropped tilted settles flat at the spring's equilibrium
 * depth mg/k; two polygons in one contact are refused by name; the carried state with polygon multipliers
 * reads back to the same values, and the layout without polygons still reads. */
#include "check.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "run.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double box_xy[8] = {-0.5, -0.25, 0.5, -0.25, 0.5, 0.25, -0.5, 0.25};

/* The compliant ground y <= 0 (tilted by tilt) and a 1 x 0.5 box of mass 1 at (x, y, theta). */
static struct world *box_world(double tilt, double x, double y, double th, double mu)
{
  struct world *w = world_create(2);
  w->mu = mu;
  int g = world_add_body(w, 1, 0, 0);
  world_add_halfplane(w, g, -sin(tilt), cos(tilt), 0.0);
  int b = world_add_body(w, 0, 1.0, (1.0 + 0.25) / 12.0);
  world_add_polygon(w, b, 4, box_xy);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b].x[0] = x, w->bodies[b].x[1] = y, w->bodies[b].theta = th;
  return w;
}

static void check_jacobian(struct world *w, const char *what, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, "quasi_rigid", NULL, rng, &nc);
  CHECK(nc >= 1 && worst < 1e-6, "quasi_rigid %s: %d contacts, analytic Jacobian = finite differences (%.1e)",
        what, nc, worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 71);
  struct world *w = box_world(0.2, 0.3, 0.35, 0.5, 0.0);
  w->bodies[1].v[0] = 0.8, w->bodies[1].v[1] = -0.6, w->bodies[1].w[2] = -2.3;
  check_jacobian(w, "turning box near a tilted compliant half-plane", rng);
  w->mu = 0.4;
  check_jacobian(w, "turning box near a tilted compliant half-plane, mu 0.4", rng);
  world_destroy(&w);
  /* the compliant side a static disc (one function), the box R moving: its half-planes' pose derivatives */
  w = world_create(2);
  w->mu = 0.3;
  int g = world_add_body(w, 1, 0, 0);
  world_add_disc(w, g, 0.0, 0.0, 0.5);
  int b = world_add_body(w, 0, 1.0, 0.1);
  world_add_polygon(w, b, 4, box_xy);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b].x[0] = 0.4, w->bodies[b].x[1] = 0.9, w->bodies[b].theta = 0.3;
  w->bodies[b].v[0] = -0.7, w->bodies[b].v[1] = 0.2, w->bodies[b].w[2] = 1.3;
  check_jacobian(w, "moving box on a static compliant disc, mu 0.3", rng);
  world_destroy(&w);
  gsl_rng_free(rng);
}

static int open_sim(struct simulation *sim, struct world *w, const char *delta_max, const char *c)
{
  return test_sim_open(sim, w, "quasi_rigid", "fb_newton",
                       OPTS("-quasi_rigid_delta_max", delta_max, "-quasi_rigid_c", c));
}

static void close_sim(struct simulation *sim)
{
  sim->w = NULL;
  simulation_close(sim);
}

/* The lowest point of the box below the compliant surface y = 0 (the layer's deflection there). */
static double box_depth(const struct body *b)
{
  double c = cos(b->theta), s = sin(b->theta), low = INFINITY;
  for (int i = 0; i < 4; i++)
    low = fmin(low, b->x[1] + s * box_xy[2 * i] + c * box_xy[2 * i + 1]);
  return fmax(0.0, -low);
}

static double mech_energy(const struct world *w)
{
  const struct body *b = &w->bodies[1];
  double d = box_depth(b);
  return world_kinetic_energy(w) + 9.81 * b->x[1] + 500.0 * d * d;
}

/* Dropped flat from 0.5 m above the layer (no damping, delta_max = 1) the box moves like the disc of
 * Sec. 6.3: first contact at sqrt(2 * 0.5 / g), largest deflection the undamped spring's mg/k + sqrt((mg/k)^2
 * + m v^2 / k) (backward Euler damps it a little), and it does not turn (the contact point starts under the
 * centre: implicit_polygon_face_guess). */
static void test_flat_drop(void)
{
  struct world *w = box_world(0.0, 0.0, 0.75, 0.0, 0.0);
  struct simulation sim;
  int ok = open_sim(&sim, w, "1", "0");
  const struct body *b = &w->bodies[1];
  double h = 1e-3, t_contact = NAN, dmax = 0.0, turn = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 600; k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    double delta = box_depth(b);
    if (delta > 0 && isnan(t_contact)) t_contact = w->t;
    dmax = fmax(dmax, delta);
    turn = fmax(turn, fabs(b->theta));
  }
  double g = 9.81, tc = sqrt(2 * 0.5 / g), v = sqrt(2 * g * 0.5), de = g / 1000.0;
  double amax = de + sqrt(de * de + v * v / 1000.0);
  CHECK(ok && failed == 0, "box dropped flat on the compliant layer: 600 steps solved (%ld failed)", failed);
  CHECK(fabs(t_contact - tc) <= 2 * h, "box dropped flat: first contact at %.4f s (free fall: %.4f s)",
        t_contact, tc);
  CHECK(fabs(dmax - amax) / amax < 0.05,
        "box dropped flat: largest deflection %.5f m (undamped spring %.5f m, as the disc of Sec. 6.3)", dmax,
        amax);
  CHECK(turn < 1e-12, "box dropped flat: it does not turn (|theta| <= %.1e)", turn);
  close_sim(&sim);
  world_destroy(&w);
}

/* On a corner (theta = 0.3), no damping. delta_max = 1 (no core impact): up to t = 0.28 s (the first corner's
 * compression and release) the mechanical energy drifts only by backward Euler's O(h) damping of the
 * layer's oscillation (the corner's effective mass 1 / (1/m + r^2/J) makes it stiffer than the disc's):
 * halving h halves the loss. delta_max = 0.05: the corner stops at the core (deflection <= delta_max). */
static double corner_drop(const char *delta_max, double h, double t_end, long *failed, double *dmax)
{
  struct world *w = box_world(0.0, 0.0, 0.6, 0.3, 0.0);
  struct simulation sim;
  int ok = open_sim(&sim, w, delta_max, "0");
  double e0 = mech_energy(w);
  long steps = lround(t_end / h);
  *failed = ok ? 0 : -1;
  *dmax = 0.0;
  for (long k = 0; ok && k < steps; k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) *failed = -1, ok = 0;
    if (ok) *failed += sum.failed_steps;
    *dmax = fmax(*dmax, box_depth(&w->bodies[1]));
  }
  double loss = e0 - mech_energy(w);
  close_sim(&sim);
  world_destroy(&w);
  return loss;
}

static void test_corner_drop(void)
{
  long f1, f2, f3;
  double d1, d2, d3;
  double loss1 = corner_drop("1", 1e-4, 0.28, &f1, &d1), loss2 = corner_drop("1", 5e-5, 0.28, &f2, &d2);
  CHECK(f1 == 0 && f2 == 0 && d1 > 0.04 && d1 < 1.0,
        "box dropped on a corner (h = 1e-4 and 5e-5, 0.28 s): every step solved, largest deflection %.4f m",
        d1);
  CHECK(loss1 > 0 && loss1 < 0.01 * 5.886 && loss1 / loss2 > 1.7 && loss1 / loss2 < 2.3,
        "box on a corner: energy lost %.2e J (h = 1e-4) and %.2e J (h = 5e-5), ratio %.2f: backward Euler's "
        "O(h) damping",
        loss1, loss2, loss1 / loss2);
  corner_drop("0.05", 1e-4, 0.5, &f3, &d3);
  CHECK(f3 == 0 && d3 <= 0.05 + 1e-9 && d3 > 0.05 - 1e-3,
        "box on a corner, delta_max = 0.05: every step solved (%ld failed), the corner stops at the core "
        "(largest deflection %.10f)",
        f3, d3);
}

/* Damped (c = 20 N s/m), a box placed flat on the undeflected layer, and one dropped from 0.15 m tilted by
 * 0.05 rad (it lands on a corner, turns flat, and before implicit_polygon_face_guess chattered between its
 * corners at +-1.2e-5 rad, 2704 of 3000 steps failed), settle flat at the equilibrium depth mg/k, as the
 * polyhedron does in 3D. */
static void test_settle(void)
{
  for (int tilted = 0; tilted < 2; tilted++) {
    struct world *w = box_world(0.0, 0.0, tilted ? 0.4 : 0.25, tilted ? 0.05 : 0.0, 0.0);
    struct simulation sim;
    int ok = open_sim(&sim, w, "1", "20");
    struct run_summary sum = {0};
    if (ok && simulation_run(&sim, 1e-3, 3000, NULL, 0, &sum)) ok = 0;
    const struct body *b = &w->bodies[1];
    double sink = 0.25 - b->x[1], ref = 9.81 / 1000.0;
    CHECK(ok && sum.failed_steps == 0 && fabs(sink - ref) / ref < 1e-6 && fabs(b->theta) < 1e-12 &&
              fabs(b->v[1]) < 1e-6,
          "damped box %s settles flat: %ld failed steps, centre sunk %.7f m (mg/k = %.7f m), theta %.1e, v_y "
          "%.1e",
          tilted ? "dropped on a corner" : "placed flat", (long)sum.failed_steps, sink, ref, b->theta,
          b->v[1]);
    close_sim(&sim);
    world_destroy(&w);
  }
}

/* Two polygons in one contact are refused; the carried state with polygon multipliers reads back, and the
 * layout without polygons (as captured before polygons were taken) still reads. */
static void test_refusal_and_state(void)
{
  struct world *w = world_create(2);
  int g = world_add_body(w, 1, 0, 0);
  const double slab[8] = {-3, -1, 3, -1, 3, 0, -3, 0};
  world_add_polygon(w, g, 4, slab);
  int b = world_add_body(w, 0, 1.0, 0.1);
  world_add_polygon(w, b, 4, box_xy);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b].x[1] = 0.3;
  struct formulation *f = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  int rc = formulation_create("quasi_rigid", &f, NULL, 0) == 0 && f->type->detect(f, w, 0.01, &cs) == 0
               ? f->type->assemble(f, w, &cs, 0.01, &p)
               : -1;
  CHECK(rc > 0 && p == NULL && strstr(f->message, "both polygons") && strstr(f->message, "Sec. 4.3"),
        "quasi_rigid: a box on a polygon slab is refused (%s)", f ? f->message : "");
  formulation_destroy(&f);
  contact_set_free(&cs);
  world_destroy(&w);

  w = box_world(0.0, 0.0, 0.24, 0.2, 0.3);
  struct simulation sim;
  int ok = open_sim(&sim, w, "1", "0");
  struct run_summary sum = {0};
  if (ok && simulation_run(&sim, 1e-3, 5, NULL, 0, &sum)) ok = 0;
  double buf[64], again[64];
  int n = ok ? sim.f->type->carry_get(sim.f, buf, 64) : 0;
  int back = n > 3 && n <= 64 && sim.f->type->carry_set(sim.f, buf, n) == 0 &&
             sim.f->type->carry_get(sim.f, again, 64) == n &&
             memcmp(buf, again, (size_t)n * sizeof *buf) == 0;
  CHECK(ok && back && buf[1] == -1.0 && buf[5] == 4.0,
        "carried state with a box: %d values, tagged -1, m2 = %g multipliers, reads back unchanged", n,
        n > 5 ? buf[5] : -1.0);
  /* the layout without polygons: [1; sc, sr, 10 answers] */
  double old[13] = {1, 0, 1, 0.1, 0.2, 0.3, 0.4, 0.0, 0.01, 1.0, 1.0, 2.0, 0.0};
  CHECK(sim.f->type->carry_set(sim.f, old, 13) == 0 && sim.f->type->carry_set(sim.f, old, 12) != 0,
        "the carried layout without polygons still reads, a truncated one is refused");
  close_sim(&sim);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_jacobians();
  test_flat_drop();
  test_corner_drop();
  test_settle();
  test_refusal_and_state();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
