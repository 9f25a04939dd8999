/* test_drives.c — the world's prismatic and mirror joints, force-limited motors and support friction
 * (world.h; their rows: jacobian.c and bounded_block.h) stepped by stewart_trinkle, each against the
 * analytic motion it must follow:
 * - support friction (Mason's 2.5D model): a disc sliding on three support points at v0 along one of the
 *   friction polygon's directions decelerates at mu g and stops after v0^2 / (2 mu g); one pushed by a force
 *   below mu m g stays put; the damping alone decays the speed as exp(-c t / m);
 * - a motor (speed v*, force F) accelerates a body from rest at F / m until it reaches v*, then holds it;
 * - a prismatic joint along an inclined axis under gravity: the body slides along it at g sin(alpha), stays
 *   on the line and does not turn;
 * - a mirror joint: a force F on one body moves both, mirrored, at F / (m_a + m_b);
 * - the drives' impulse reported for the physics checks: a motor's first step, F h along its axis;
 * - world text: a world with all four round-trips exactly; a version-1 text (no such parts) still reads. */
#include "check.h"
#include "drive_fixture.h"
#include "formulation.h"
#include "stepper.h"
#include "world_io.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double H = 1e-3;

/* n steps of w with stewart_trinkle and Lemke: the failed solves (or -1). */
static int step_n(struct world *w, int n) { return drive_steps(w, n, H, "stewart_trinkle", "lemke"); }

static void test_support(void)
{
  const double m = 0.03, mu = 0.4, v0 = 0.05, g = 9.81;
  struct world *w = drive_support_disc(m, mu, 0.0);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  w->bodies[0].v[0] = v0;
  const int steps = (int)(1.5 * v0 / (mu * g) / H);
  CHECK(step_n(w, steps) == 0, "support: %d steps solved", steps);
  const double slide = drive_slide_distance(v0, mu * g, H);
  const double stop = v0 * v0 / (2.0 * mu * g);
  CHECK(fabs(w->bodies[0].x[0] - slide) < 1e-12 && fabs(w->bodies[0].v[0]) < 1e-12,
        "support: slides %.9g m (the scheme's v_k = v0 - k mu g h: %.9g m; v0^2 / (2 mu g) = %.6g m as "
        "h -> 0) and stops (v %.2g)",
        w->bodies[0].x[0], slide, stop, w->bodies[0].v[0]);
  CHECK(fabs(w->bodies[0].x[1]) < 1e-12 && fabs(w->bodies[0].w[2]) < 1e-9,
        "support: straight, not turning (y %.2g, omega %.2g)", w->bodies[0].x[1], w->bodies[0].w[2]);
  world_destroy(&w);
  w = drive_support_disc(m, mu, 0.0);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  w->bodies[0].f[0] = 0.9 * mu * m * g;
  CHECK(step_n(w, 200) == 0 && fabs(w->bodies[0].x[0]) < 1e-12,
        "support: a push of 0.9 mu m g does not move it (x %.2g)", w->bodies[0].x[0]);
  world_destroy(&w);
  const double c = 0.3;
  w = drive_support_disc(m, 0.0, c);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  w->bodies[0].v[0] = v0;
  step_n(w, 100);
  const double expect = v0 * exp(-c * 0.1 / m);
  CHECK(fabs(w->bodies[0].v[0] - expect) < 0.02 * expect,
        "support damping alone: v(0.1 s) %.6g, v0 exp(-c t / m) %.6g", w->bodies[0].v[0], expect);
  world_destroy(&w);
}

static void test_motor(void)
{
  const double m = 0.1, F = 0.5, vstar = 0.2, ex[3] = {1.0, 0.0, 0.0};
  struct world *w = drive_motor_disc(m, ex, vstar, F);
  CHECK(w != NULL, "motor: added");
  if (!w) return;
  CHECK(world_add_motor(w, 0, ex, vstar, 0.0) < 0, "motor: a force limit of 0 is refused");
  const int ramp = (int)(vstar * m / F / H), half = ramp / 2; /* 40 steps to reach v* */
  CHECK(step_n(w, half) == 0, "motor: solved");
  const double v_half = w->bodies[0].v[0], t_half = H * half;
  CHECK(fabs(v_half - F / m * t_half) < 1e-9, "motor: at the force limit, v %.6g = F t / m %.6g", v_half,
        F / m * t_half);
  step_n(w, 3 * ramp);
  CHECK(fabs(w->bodies[0].v[0] - vstar) < 1e-9, "motor: holds v* (%.9g)", w->bodies[0].v[0]);
  world_destroy(&w);
}

/* The drives' impulse the formulation reports for the physics checks (formulation.h's drive_impulse): a
 * motor's first step from rest is at its force limit, F h along its axis; every registered formulation that
 * takes drives reports it. */
static void test_drive_impulse(void)
{
  for (int i = 0; formulation_registry[i]; i++)
    if (formulation_registry[i]->drives)
      CHECK(formulation_registry[i]->drive_impulse != NULL, "%s takes drives and reports their impulse",
            formulation_registry[i]->name);
  const double m = 0.1, F = 0.5, vstar = 0.2, ex[3] = {1.0, 0.0, 0.0};
  struct world *w = drive_motor_disc(m, ex, vstar, F);
  double g[3] = {0.0, 0.0, 0.0};
  const int stepped = w ? drive_step_impulse(w, H, "stewart_trinkle", "lemke", g) : -1;
  CHECK(stepped == 0, "drive impulse: a step made");
  CHECK(fabs(g[0] - F * H) < 1e-12 * F * H && g[1] == 0.0 && g[2] == 0.0,
        "drive impulse: the motor's F h = %g along x (%g, %g, %g)", F * H, g[0], g[1], g[2]);
  world_destroy(&w);
}

static void test_slider_and_mirror(void)
{
  const double alpha = 0.3, g = 9.81, m = 0.2, axis[2] = {cos(alpha), -sin(alpha)};
  struct world *w = drive_incline_slider(m, alpha);
  CHECK(w != NULL, "slider: added");
  if (!w) return;
  const int n = 500;
  CHECK(step_n(w, n) == 0, "slider: solved");
  const double t = n * H, s_along = w->bodies[0].x[0] * axis[0] + w->bodies[0].x[1] * axis[1];
  const double expect = 0.5 * g * sin(alpha) * t * t;
  CHECK(fabs(s_along - expect) < 0.01 * expect, "slider: %.6g m along the axis, g sin(alpha) t^2 / 2 %.6g",
        s_along, expect);
  CHECK(world_joint_gap(w) < 1e-9 && fabs(w->bodies[0].theta) < 1e-12,
        "slider: on the line (%.2g) and not turned (%.2g)", world_joint_gap(w), w->bodies[0].theta);
  world_destroy(&w);

  const double ma = 0.05, mb = 0.15, F = 0.4, zero[3] = {0.0, 0.0, 0.0}, ex[3] = {1.0, 0.0, 0.0};
  w = drive_mirror_pair(ma, mb);
  CHECK(w != NULL, "mirror: added");
  if (!w) return;
  CHECK(world_add_mirror(w, 0, -1, zero, ex) < 0, "mirror: needs two bodies");
  w->bodies[0].f[0] = F;
  CHECK(step_n(w, 100) == 0, "mirror: solved");
  const double acc = F / (ma + mb), v = acc * 100 * H;
  CHECK(fabs(w->bodies[0].v[0] - v) < 1e-9 && fabs(w->bodies[1].v[0] + v) < 1e-9,
        "mirror: v %.6g and %.6g, +-F t / (m_a + m_b) = %.6g", w->bodies[0].v[0], w->bodies[1].v[0], v);
  world_destroy(&w);
}

static void test_text(void)
{
  struct world *w = drive_support_disc(0.03, 0.5, 0.1);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  const double zero[3] = {0.0, 0.0, 0.0}, ex[3] = {1.0, 0.0, 0.0};
  int b = world_add_body(w, 0, 0.1, 1e-4);
  world_add_disc(w, b, 0.0, 0.0, 0.01);
  world_add_slider(w, b, -1, zero, zero, ex);
  world_add_motor(w, b, ex, -0.02, 2.0);
  world_finalize(w);
  char *t1 = NULL, *t2 = NULL;
  size_t n1 = 0, n2 = 0;
  struct world *copy = NULL;
  char err[256] = "";
  int rc = world_to_text(w, &t1, &n1) || world_from_text(t1, n1, &copy, err, sizeof err) ||
           world_to_text(copy, &t2, &n2);
  CHECK(!rc && n1 == n2 && memcmp(t1, t2, n1) == 0 && strncmp(t1, "world 2 ", 8) == 0,
        "text: a world with a support, a slider and a motor round-trips exactly (version 2) %s", err);
  CHECK(copy && copy->nsup == 1 && copy->nm == 1 && copy->joints[0].kind == JOINT_PRISMATIC_2D,
        "text: the parts are back");
  free(t1), free(t2);
  world_destroy(&copy);
  world_destroy(&w);
  w = world_create(2);
  world_add_disc(w, world_add_body(w, 0, 1.0, 1.0), 0.0, 0.0, 0.5);
  world_finalize(w);
  rc = world_to_text(w, &t1, &n1) || world_from_text(t1, n1, &copy, err, sizeof err);
  CHECK(!rc && strncmp(t1, "world 1 ", 8) == 0, "text: a world without them stays version 1 and reads %s",
        err);
  free(t1);
  world_destroy(&copy);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_support();
  test_motor();
  test_drive_impulse();
  test_slider_and_mirror();
  test_text();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
