/* test_stewart_trinkle_3d.c — 3D known answers for the Stewart-Trinkle LCP (Egan et al.
 * eqs. 5-7) through the stepper and the 3D narrow phase (contact3d), solved by Lemke: contact detection
 * of a box on a plane through world_detect; a ball dropped on a plane comes to rest without penetrating
 * beyond the stabilisation tolerance; an icosahedron dropped on a triangulated block settles on a face
 * (polyhedron pairs throughout); a box on an incline sticks (tan theta <= mu: drift < 1e-9 after
 * 1 s) or slides with a = g (sin theta - mu cos theta) (1e-6 relative at h = 1e-3) when the slide runs
 * along one of the k = 4 friction directions (formulation_tangents) — a pyramid cone bounds friction by
 * mu p_n only along its generators; between two of them friction is weaker along the slope and pulls
 * sideways, which the last case measures (see test_incline). The same inclines with the exact cone
 * (coulomb_cone, solved by fc_newton): stick, and slide at Coulomb's a with no sideways drift whatever the
 * slide's direction (the isotropic cone: yaw pi/4 too). */
#include "check.h"
#include "formulation.h"
#include "geom3d.h"
#include "hull3d.h"
#include "run.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

static const char *solver_name = "lemke";
static const char *formulation_name = "stewart_trinkle";

static int run(struct world *w, double h, int steps, double *max_pen)
{
  /* the caller keeps w: the simulation borrows it for the run loop */
  struct simulation sim = {.w = w};
  struct run_summary sum;
  int failed = -1;
  if (max_pen) *max_pen = 0.0;
  if (formulation_create(formulation_name, &sim.f, NULL, 0) || solver_create(solver_name, &sim.s, NULL, 0) ||
      stepper_create(&sim.st) || simulation_run(&sim, h, steps, NULL, 0, &sum))
    goto cleanup;
  failed = (int)sum.failed_steps;
  if (max_pen) *max_pen = sum.max_penetration;
cleanup:
  sim.w = NULL;
  simulation_close(&sim);
  return failed;
}

/* Static plane through the origin with unit normal n (body 0) and a box (half extents he, mass m) whose
 * bottom face rests on it, at rest (body 1). */
static struct world *box_on_plane(const double n[3], const double he[3], double m, double mu)
{
  struct world *w = world_create(3);
  struct polyhedron *box = hull3d_box(he[0], he[1], he[2]);
  if (!w || !box) goto fail;
  /* Parts are appended to the last body added, so each body takes its shapes before the next one. */
  int ground = world_add_body(w, 1, 0.0, 0.0);
  if (ground < 0 || world_add_plane(w, ground, n, 0.0) < 0) goto fail;
  int b = world_add_body(w, 0, m, 1.0);
  if (b < 0) goto fail;
  hull3d_central_inertia(box, m, w->bodies[b].inertia3);
  if (world_add_polyhedron(w, b, box) < 0) {
    box = NULL; /* owned (and freed) by the world on failure */
    goto fail;
  }
  /* Turn the body's z axis onto n, then lift the centre by the half height. */
  double z[3] = {0, 0, 1}, axis[3];
  vec3_cross(z, n, axis);
  quat_from_axis_angle(axis, acos(fmin(1.0, vec3_dot(z, n))), w->bodies[b].q);
  vec3_scale(n, he[2], w->bodies[b].x);
  w->mu = mu;
  w->threshold = 0.01;
  if (world_finalize(w)) goto fail;
  return w;
fail:
  polyhedron_free(box);
  world_destroy(&w);
  return NULL;
}

static void test_detect_box(void)
{
  double n[3] = {0, 0, 1}, he[3] = {0.2, 0.15, 0.1};
  struct world *w = box_on_plane(n, he, 2.0, 0.3);
  struct contact_set cs = {0};
  if (!w) {
    CHECK(0, "3D detect: box on a plane built");
    return;
  }
  w->bodies[1].x[2] += 0.004;
  int rc = world_detect(w, w->threshold, &cs), ok = rc == 0 && cs.n == 4;
  for (int i = 0; ok && i < cs.n; i++) {
    const struct contact *c = &cs.c[i];
    /* The broad phase picks the order; the normal points from b to a either way. */
    int box_is_a = c->a == 1;
    ok = fabs(c->gap - 0.004) < 1e-12 && c->n[2] == (box_is_a ? 1.0 : -1.0) && c->mu == 0.3 &&
         (box_is_a ? c->fa : c->fb) == FEATURE_VERTEX && (box_is_a ? c->fb : c->fa) == FEATURE_SURFACE &&
         w->shapes[c->sa].body == c->a && w->shapes[c->sb].body == c->b && c->a + c->b == 1;
  }
  CHECK(ok, "3D detect: box 0.004 above a plane gives 4 vertex-plane contacts, normal from b to a (%d)",
        cs.n);
  contact_set_free(&cs);
  world_destroy(&w);
}

static void test_ball_drop(void)
{
  struct world *w = world_create(3);
  double n[3] = {0, 0, 1}, c[3] = {0, 0, 0}, r = 0.5, m = 1.0, pen;
  world_add_plane(w, world_add_body(w, 1, 0.0, 0.0), n, 0.0);
  int b = world_add_body(w, 0, m, 0.4 * m * r * r);
  world_add_sphere(w, b, c, r);
  w->bodies[b].x[2] = 1.0;
  w->mu = 0.3;
  w->threshold = 0.05;
  world_finalize(w);
  int failed = run(w, 0.01, 200, &pen);
  const struct body *ball = &w->bodies[b];
  CHECK(failed == 0, "ball drop 3D: every solve converged (%d failed)", failed);
  CHECK_CLOSE(ball->x[2], r, 1e-6, "ball drop 3D: rests on the plane (z = %.12g)", ball->x[2]);
  CHECK(fabs(ball->v[2]) < 1e-9 && fabs(ball->v[0]) < 1e-12 && fabs(ball->v[1]) < 1e-12,
        "ball drop 3D: at rest (v = %g %g %g)", ball->v[0], ball->v[1], ball->v[2]);
  CHECK(pen < 1e-9, "ball drop 3D: no penetration at step starts (max %g)", pen);
  world_destroy(&w);
}

/* An icosahedron (circumradius 0.5, mass 0.5) dropped, slightly turned, on a static block (as the PEG
 * box-of-icosahedra floor, a triangulated mesh): polyhedron-polyhedron contacts through the whole fall;
 * it must settle on a face, its centre at the inradius phi^2 a / (2 sqrt 3) above the block. */
static void test_icosahedron_drop(void)
{
  struct world *w = world_create(3);
  struct polyhedron *block = hull3d_box(2, 2, 0.125), *tri = block ? hull3d_triangulate(block) : NULL;
  polyhedron_free(block);
  int floor = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, floor, tri);
  w->bodies[floor].x[2] = -0.125;
  int b = world_add_body(w, 0, 0.5, 0.1309017);
  world_add_polyhedron(w, b, hull3d_icosahedron(0.5));
  double axis[3] = {1, 2, 3}, pen;
  quat_from_axis_angle(axis, 0.2, w->bodies[b].q);
  w->bodies[b].x[2] = 1.0;
  w->mu = 0.3;
  w->threshold = 0.05;
  if (world_finalize(w)) {
    CHECK(0, "icosahedron drop: scene built");
    world_destroy(&w);
    return;
  }
  int failed = run(w, 0.01, 300, &pen);
  const double phi = 0.5 * (1 + sqrt(5.0)), a = 1.0 / sqrt(1 + phi * phi),
               inradius = phi * phi * a / (2 * sqrt(3.0));
  const struct body *ico = &w->bodies[b];
  CHECK(failed == 0, "icosahedron drop: every solve converged (%d failed)", failed);
  CHECK(fabs(ico->x[2] - inradius) < 1e-6, "icosahedron drop: rests on a face (z = %.9g, inradius %.9g)",
        ico->x[2], inradius);
  CHECK(vec3_norm(ico->v) < 1e-6 && vec3_norm(ico->w) < 1e-6, "icosahedron drop: at rest (|v| %g, |w| %g)",
        vec3_norm(ico->v), vec3_norm(ico->w));
  CHECK(pen < 1e-6, "icosahedron drop: no penetration at step starts (max %g)", pen);
  world_destroy(&w);
}

/* Box on an incline of angle theta whose downhill direction is turned by yaw about z. yaw = 0: surface
 * z = x tan(theta), downhill d = (-cos, 0, -sin) = n x t1 with t1 = y (formulation_tangents), a generator
 * of the pyramid cone, so the slide obeys a = g (sin - mu cos) exactly. yaw = pi/4 puts the downhill
 * direction between generators: friction then acts along the generator most opposed to the velocity,
 * weaker along the slope (at least mu p_n cos(pi/k)) and with a sideways part, so the box accelerates
 * more than the Coulomb (circular-cone) answer and drifts sideways — the pyramid's anisotropy. */
static void test_incline(double theta_deg, double mu, double yaw)
{
  double theta = theta_deg * M_PI / 180.0, h = 1e-3, g = 9.81, cy = cos(yaw), sy = sin(yaw);
  double n[3] = {-sin(theta) * cy, -sin(theta) * sy, cos(theta)};
  double down[3] = {-cos(theta) * cy, -cos(theta) * sy, -sin(theta)}, he[3] = {0.2, 0.15, 0.1};
  struct world *w = box_on_plane(n, he, 2.0, mu);
  if (!w) {
    CHECK(0, "incline 3D: scene built");
    return;
  }
  double x0[3];
  vec3_scale(w->bodies[1].x, 1.0, x0);
  int failed = run(w, h, 1000, NULL);
  const struct body *b = &w->bodies[1];
  double dx[3];
  vec3_sub(b->x, x0, dx);
  double ds = vec3_dot(dx, down), vs = vec3_dot(b->v, down), side[3];
  vec3_cross(n, down, side);
  double drift = vec3_dot(dx, side), a = vs / (1000 * h), exact = g * (sin(theta) - mu * cos(theta));
  const char *f = formulation_name;
  CHECK(failed == 0, "%s incline 3D %g deg mu %g yaw %g: every solve converged (%d failed)", f, theta_deg, mu,
        yaw, failed);
  if (tan(theta) <= mu) {
    CHECK(vec3_norm(dx) < 1e-9, "%s incline 3D %g deg mu %g yaw %g: sticks (drift %g after 1 s)", f,
          theta_deg, mu, yaw, vec3_norm(dx));
  } else if (yaw == 0.0 || strcmp(f, "coulomb_cone") == 0) {
    CHECK(fabs(a - exact) <= 1e-6 * exact, "%s incline 3D %g deg mu %g yaw %g: a = %.12g vs %.12g (rel %.2e)",
          f, theta_deg, mu, yaw, a, exact, fabs(a - exact) / exact);
    /* Lemke's answers are exact to rounding; fc_newton's to its tolerance 1e-8 on the impulses, whose
     * sideways error accumulates over the 1000 steps to ~1e-8 m (the pyramid's drift: 0.11 m) */
    double drift_tol = strcmp(f, "coulomb_cone") == 0 ? 1e-6 : 1e-9;
    CHECK(fabs(drift) < drift_tol && ds > 0.0, "%s incline 3D %g deg mu %g yaw %g: no sideways drift (%g)", f,
          theta_deg, mu, yaw, drift);
  } else {
    double k = 4, weakest = g * (sin(theta) - mu * cos(theta) * cos(M_PI / k));
    CHECK(a > exact * (1 + 1e-2) && a <= weakest * (1 + 1e-9) && fabs(drift) > 1e-2,
          "incline 3D %g deg mu %g yaw %g: between generators a = %.6g (Coulomb %.6g, pyramid bound %.6g), "
          "sideways drift %.3g m",
          theta_deg, mu, yaw, a, exact, weakest, drift);
  }
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find(solver_name)) solver_name = "pgs";
  test_detect_box();
  test_ball_drop();
  test_icosahedron_drop();
  test_incline(20.0, 0.5, 0.0);
  test_incline(30.0, 0.3, 0.0);
  test_incline(15.0, 0.1, 0.0);
  test_incline(30.0, 0.3, M_PI / 4);
  formulation_name = "coulomb_cone"; /* the exact cone: isotropic, so yaw changes nothing */
  solver_name = "fc_newton";
  test_incline(20.0, 0.5, 0.0);
  test_incline(30.0, 0.3, 0.0);
  test_incline(30.0, 0.3, M_PI / 4);
  test_incline(15.0, 0.1, M_PI / 3);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
