/* test_quasi_rigid_friction.c — friction in the quasi-rigid mixed NCP (Chakraborty, Berard, Akella & Trinkle,
 * Sec. 5.1 eq. (37) with the ellipsoidal law (21)-(22) of Sec. 3, 2D; its Jacobian is checked in
 * test_quasi_rigid.c): a unit disc (m = 1, r = 1, J = 1/2) launched along
 * the compliant half-plane without spin, which slides and then rolls. Analytic answer, whatever the normal
 * force's history: the friction impulse P stops the slip when v0 - P/m = P r^2 / J, so the disc rolls at
 * v = v0 / (1 + m r^2 / J) = 2 v0 / 3 and has lost m v0^2 / 6 of kinetic energy; with the normal force m g
 * the slip lasts v0 / (3 mu g). In 3D (quasi_rigid.c, with implicit_friction3.h's rows, e_t, e_o, e_r): a
 * solid sphere (m = 1, r = 1, I = 2/5 m r^2) launched without spin on the compliant plane rolls at
 * v0 / (1 + m r^2 / I) = 5 v0 / 7 after sliding for 2 v0 / (7 mu g) and has lost m v0^2 / 7 (the final
 * energy is (1/2) m v^2 (1 + 2/5) = (5/7) (1/2) m v0^2), the same launched along y gives the same numbers
 * (isotropy: the run along x uses p_t, the one along y p_o), and a sphere spinning about the vertical axis
 * is braked by the frictional moment |p_r| = e_r mu p_n of the ellipsoid (22): omega falls linearly at
 * e_r mu m g / I and stops at omega0 I / (e_r mu m g). Also: the registered scene sphere_roll3d, and a 3D
 * run's carried state with friction rebuilding the step's problem bit for bit. */
#include "check.h"
#include "formulation.h"
#include "run.h"
#include "scene.h"
#include "scenes.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* The layer's damping of every run here: c = 63, critically damped for m = 1, k = 1000. */
static const char *const damped[] = {"-quasi_rigid_c", "63", NULL};

static void test_slide_then_roll(void)
{
  const double g = 9.81, k = 1000.0, mu = 0.3, v0 = 2.0, h = 1e-3;
  /* resting on the layer at the spring's equilibrium deflection m g / k, critically damped */
  struct world *w = scene_disc_on_line(1.0, 1.0, 1.0 - g / k, mu);
  w->threshold = 0.5;
  w->bodies[1].v[0] = v0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton", damped);
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

/* A unit sphere (m = 1, I = 2/5) at rest on the compliant plane z <= 0 at the spring's equilibrium
 * deflection m g / k, friction mu. */
static struct world *sphere_on_plane(double mu)
{
  struct world *w = world_create(3);
  const double up[3] = {0, 0, 1}, o[3] = {0, 0, 0};
  world_add_plane(w, world_add_body(w, 1, 0, 0), up, 0.0);
  world_add_sphere(w, world_add_body(w, 0, 1.0, 0.4), o, 1.0);
  world_finalize(w);
  w->mu = mu;
  w->threshold = 0.5;
  w->bodies[1].x[2] = 1.0 - 9.81 / 1000.0;
  return w;
}

/* The sphere settles on the layer for 0.3 s (critically damped, c = 63: the first step's damper sees
 * delta^l = 0 and kicks it up), is then given the velocity v and angular velocity om, and runs n steps of h:
 * its velocity and angular velocity per step in traj (6 per step). er: -quasi_rigid_er (NULL: its default).
 */
static long run_sphere(struct world *w, const char *solver, const char *er, double h, const double v[3],
                       const double om[3], int n, double *traj)
{
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", solver,
                         er ? OPTS("-quasi_rigid_c", "63", "-quasi_rigid_er", er) : damped);
  long failed = ok ? 0 : n;
  const int settle = (int)lround(0.3 / h);
  for (int s = -settle; ok && s < n; s++) {
    if (s == 0) {
      memcpy(w->bodies[1].v, v, 3 * sizeof *v);
      memcpy(w->bodies[1].w, om, 3 * sizeof *om);
    }
    struct run_summary sum;
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0, failed = n;
    failed += sum.failed_steps;
    if (s < 0) continue;
    memcpy(traj + 6 * s, w->bodies[1].v, 3 * sizeof(double));
    memcpy(traj + 6 * s + 3, w->bodies[1].w, 3 * sizeof(double));
  }
  sim.w = NULL;
  simulation_close(&sim);
  return failed;
}

static void test_sphere_slide_then_roll(void)
{
  const double g = 9.81, mu = 0.3, v0 = 2.0, h = 1e-3, zero[3] = {0, 0, 0};
  const int n = 400;
  double *tx = calloc(6 * n, sizeof *tx), *ty = calloc(6 * n, sizeof *ty);
  struct world *wx = sphere_on_plane(mu), *wy = sphere_on_plane(mu);
  const double vx[3] = {v0, 0, 0}, vy[3] = {0, v0, 0};
  long fx = run_sphere(wx, "fb_newton", NULL, h, vx, zero, n, tx),
       fy = run_sphere(wy, "fb_newton", NULL, h, vy, zero, n, ty);
  CHECK(fx == 0 && fy == 0, "3D sphere slide then roll: 2 x %d steps solved by fb_newton (%ld, %ld failed)",
        n, fx, fy);
  /* slip: the contact point's velocity v + omega x (-r e_z), r = 1: (v_x - w_y, v_y + w_x) */
  double t_roll = NAN, slip_after = 0.0, iso = 0.0;
  for (int s = 0; s < n; s++) {
    const double *a = tx + 6 * s, *b = ty + 6 * s;
    double slip = hypot(a[0] - a[4], a[1] + a[3]);
    if (isnan(t_roll) && slip < 1e-6) t_roll = (s + 1) * h;
    if (!isnan(t_roll) && (s + 1) * h > t_roll + 0.05) slip_after = fmax(slip_after, slip);
    /* the run along y is the run along x turned by +90 degrees about z: (x, y) -> (-y, x) */
    double d[6] = {a[0] - b[1], a[1] + b[0], a[2] - b[2], a[3] - b[4], a[4] + b[3], a[5] - b[5]};
    for (int k = 0; k < 6; k++)
      iso = fmax(iso, fabs(d[k]));
  }
  const struct body *b = &wx->bodies[1];
  /* the energy lost in the horizontal motion (the vertical one has settled: its energy is the same before
   * and after, to the spring's rest) */
  double vr = hypot(tx[6 * (n - 1)], tx[6 * (n - 1) + 1]),
         wr = hypot(tx[6 * (n - 1) + 3], tx[6 * (n - 1) + 4]);
  double t_star = 2 * v0 / (7 * mu * g), v_roll = 5 * v0 / 7,
         loss = v0 * v0 / 2 - (vr * vr / 2 + 0.4 * wr * wr / 2);
  CHECK(fabs(b->v[0] - v_roll) < 2e-3 && fabs(b->w[1] - v_roll) < 2e-3 && fabs(b->v[1]) < 1e-9,
        "3D sphere rolls at v = %.5f m/s, omega r = %.5f (analytic 5 v0 / 7 = %.5f), sideways %.1e", b->v[0],
        b->w[1], v_roll, b->v[1]);
  CHECK(fabs(t_roll - t_star) < 0.02 * t_star + 2 * h,
        "3D sphere: slip ends at %.4f s (analytic 2 v0 / (7 mu g) = %.4f s with the normal force m g)",
        t_roll, t_star);
  CHECK(slip_after < 1e-6, "3D sphere: no slip once rolling (largest %.1e m/s)", slip_after);
  CHECK(fabs(loss - v0 * v0 / 7) < 5e-3,
        "3D sphere: kinetic energy lost %.5f J (analytic m v0^2 / 7 = %.5f J)", loss, v0 * v0 / 7);
  CHECK(iso < 1e-10, "3D sphere: launched along y it moves as along x, turned (largest difference %.1e)",
        iso);
  world_destroy(&wx);
  world_destroy(&wy);
  free(tx);
  free(ty);
}

/* The frictional moment about the normal (e_r of the ellipsoid (22), here 0.3 m): a sphere spinning at
 * omega0 = 2 rad/s about z slows at e_r mu m g / I and stops; no sliding meanwhile. */
static void test_sphere_spin(void)
{
  const double g = 9.81, mu = 0.3, er = 0.3, om0 = 2.0, h = 1e-3, zero[3] = {0, 0, 0};
  const int n = 1200;
  double *tr = calloc(6 * n, sizeof *tr);
  struct world *w = sphere_on_plane(mu);
  long failed = run_sphere(w, "fb_newton", "0.3", h, zero, (const double[3]){0, 0, om0}, n, tr);
  double rate = er * mu * g / 0.4, t_stop = om0 / rate, t_end = NAN, worst = 0.0, slide = 0.0;
  for (int s = 0; s < n; s++) {
    double t = (s + 1) * h, om = tr[6 * s + 5];
    if (isnan(t_end) && fabs(om) < 1e-6) t_end = t;
    if (t < t_stop) worst = fmax(worst, fabs(om - (om0 - rate * t)));
    slide = fmax(slide, fmax(fabs(tr[6 * s]), fabs(tr[6 * s + 1])));
  }
  double om_end = tr[6 * (n - 1) + 5];
  CHECK(failed == 0, "3D spinning sphere: %d steps solved by fb_newton (%ld failed)", n, failed);
  CHECK(worst < 0.01 * om0,
        "3D spinning sphere: omega falls at e_r mu m g / I = %.4f rad/s^2 (largest departure %.1e rad/s)",
        rate, worst);
  CHECK(fabs(t_end - t_stop) < 0.02 * t_stop + 2 * h && fabs(om_end) < 1e-6,
        "3D spinning sphere: stops at %.4f s (analytic omega0 I / (e_r mu m g) = %.4f s), then %.1e rad/s",
        t_end, t_stop, om_end);
  CHECK(slide < 1e-9, "3D spinning sphere: no sliding (largest |v_x|, |v_y| %.1e m/s)", slide);
  world_destroy(&w);
  free(tr);
}

/* The registered scene sphere_roll3d (bench_step's use of this friction), launched at 30 degrees from x and
 * touching the plane undeflected: under quasi_rigid + fb_newton it sinks into the layer, slides and rolls at
 * 5 v0 / 7 along its heading (the frame's t and o both carry friction). */
static void test_scene(void)
{
  struct world *w = NULL;
  char msg[256] = "";
  int rc = scene_create_from_spec("sphere_roll3d:heading=30", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->dim == 3 && w->nb == 2 && fabs(w->bodies[1].inertia - 0.4) < 1e-15 &&
            fabs(w->bodies[1].v[0] - 2 * cos(M_PI / 6)) < 1e-15 && fabs(w->bodies[1].v[1] - 1.0) < 1e-15,
        "scene sphere_roll3d:heading=30: a unit sphere (I = 0.4) at v = 2 m/s, 30 degrees from x %s", msg);
  if (rc) return;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton", damped);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 1e-3, 500, NULL, 0, &sum) == 0;
  const struct body *b = &w->bodies[1];
  double v = hypot(b->v[0], b->v[1]), side = fabs(b->v[0] * 0.5 - b->v[1] * cos(M_PI / 6));
  CHECK(ok && sum.failed_steps == 0 && fabs(v - 10.0 / 7) < 5e-3 && side < 1e-9,
        "scene sphere_roll3d:heading=30, quasi_rigid: 500 steps (%ld failed), rolls at %.5f m/s (analytic 5 "
        "v0 / 7 "
        "= %.5f), off its heading %.1e m/s",
        sum.failed_steps, v, 10.0 / 7, side);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

/* The carried state of a 3D run with friction (its pairs' p_t, p_o, p_r, sigma and frame axis besides the
 * frictionless answers, implicit_carry.h) rebuilds the step's problem in a fresh formulation bit for bit. */
static void test_carry_3d(void)
{
  const double zero[3] = {0, 0, 0}, v[3] = {1.5, -0.5, 0};
  struct world *w = sphere_on_plane(0.3);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton", damped);
  struct formulation *f2 = test_formulation("quasi_rigid", damped);
  ok = ok && f2;
  memcpy(w->bodies[1].v, v, sizeof v);
  memcpy(w->bodies[1].w, zero, sizeof zero);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 1e-3, 50, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  double *carry = NULL;
  int nc = 0, same = 0;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p1 = NULL, *p2 = NULL;
  if (ok && formulation_carry_get(sim.f, &carry, &nc) == 0 && formulation_carry_set(f2, carry, nc) == 0 &&
      f2->type->detect(f2, w, 1e-3, &cs) == 0 && sim.f->type->assemble(sim.f, w, &cs, 1e-3, &p1) == 0 &&
      f2->type->assemble(f2, w, &cs, 1e-3, &p2) == 0 && p1->n == p2->n) {
    double *z = calloc((size_t)p1->n, sizeof *z), *F1 = calloc((size_t)p1->n, sizeof *F1),
           *F2 = calloc((size_t)p1->n, sizeof *F2);
    same = z && F1 && F2 && cp_eval_F(p1, z, F1) == 0 && cp_eval_F(p2, z, F2) == 0 &&
           memcmp(F1, F2, (size_t)p1->n * sizeof *F1) == 0 &&
           memcmp(p1->lo, p2->lo, (size_t)p1->n * sizeof *F1) == 0;
    free(z), free(F1), free(F2);
  }
  CHECK(same && p1 && p1->n == 22,
        "quasi_rigid 3D with friction: the carried state (%d values) rebuilds the step's problem (%d "
        "unknowns) bit "
        "for bit",
        nc, p1 ? p1->n : 0);
  free(carry);
  cp_destroy(&p1);
  cp_destroy(&p2);
  contact_set_free(&cs);
  formulation_destroy(&f2);
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
  CHECK(ok && formulation_supports(f, w3) && formulation_supports(f, w2),
        "quasi_rigid with friction: 2D and 3D worlds with mu > 0 supported");
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
  test_sphere_slide_then_roll();
  test_sphere_spin();
  test_scene();
  test_carry_3d();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
