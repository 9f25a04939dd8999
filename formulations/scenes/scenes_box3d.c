/* scenes_box3d.c — the registered scene box_drop3d: one uniform box (a convex polyhedron, hull3d_box) at rest
 * at a height above the ground plane z <= 0, turned about the x and then the y axis so that it lands on an
 * edge or a vertex, falling under gravity. For the geometrically implicit formulation it is Chakraborty,
 * Berard, Akella & Trinkle's Sec. 4.3 case (an intersection of half-spaces, one multiplier per face, against
 * the plane's single function); the explicit formulations take it through the shared polyhedron detection.
 * Inertia tensor from the hull (hull3d_central_inertia). */
#include "geom3d.h"
#include "hull3d.h"
#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

struct box_drop3d_settings {
  double a, b, c, mass, mu, height, tilt, roll;
};

#define ROW(field, type, def, range, help)                                                                   \
  {                                                                                                          \
#field, type, offsetof(struct box_drop3d_settings, field), def, range, help                              \
  }
static const struct option_decl box_drop3d_options[] = {
    ROW(a, OPT_REAL, "0.5", "(0,inf)", "half extent along the body's x [m]"),
    ROW(b, OPT_REAL, "0.4", "(0,inf)", "half extent along the body's y [m]"),
    ROW(c, OPT_REAL, "0.3", "(0,inf)", "half extent along the body's z [m]"),
    ROW(mass, OPT_REAL, "1", "(0,inf)", "mass [kg]"),
    ROW(mu, OPT_REAL, "0.3", "[0,inf)", "Coulomb friction coefficient"),
    ROW(height, OPT_REAL, "1.2", "(0,inf)", "height of the centre at the start [m]"),
    ROW(tilt, OPT_REAL, "20", "[-180,180]", "turn about the x axis at the start [degrees]"),
    ROW(roll, OPT_REAL, "10", "[-180,180]",
        "then about the y axis [degrees] (0 with tilt: lands on an edge)"),
};
#undef ROW

static int box_drop3d_build(const void *settings, gsl_rng *rng, struct world **out, char *msg, size_t len)
{
  const struct box_drop3d_settings *s = settings;
  const double up[3] = {0, 0, 1}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0};
  (void)rng;
  *out = NULL;
  struct world *w = world_create(3);
  struct polyhedron *box = w ? hull3d_box(s->a, s->b, s->c) : NULL;
  if (!box) {
    snprintf(msg, len, "out of memory");
    world_destroy(&w);
    return 1;
  }
  w->mu = s->mu;
  int g = world_add_body(w, 1, 0, 0), b = -1;
  if (g >= 0 && world_add_plane(w, g, up, 0.0) >= 0) b = world_add_body(w, 0, s->mass, 1.0);
  if (b >= 0)
    hull3d_central_inertia(box, s->mass, w->bodies[b].inertia3);
  else
    polyhedron_free(box); /* world_add_polyhedron frees it on its own failure */
  int sh = b >= 0 ? world_add_polyhedron(w, b, box) : -1;
  if (sh < 0 || world_finalize(w)) {
    snprintf(msg, len, "out of memory");
    world_destroy(&w);
    return 1;
  }
  double qx[4], qy[4];
  w->bodies[b].x[2] = s->height;
  quat_from_axis_angle(x, s->tilt * M_PI / 180.0, qx);
  quat_from_axis_angle(y, s->roll * M_PI / 180.0, qy);
  quat_mul(qy, qx, w->bodies[b].q);
  *out = w;
  return 0;
}

const struct scene_type scene_type_box_drop3d = {
    "box_drop3d",
    "a box (convex polyhedron) turned above the ground plane, falling onto an edge or a vertex",
    "Chakraborty, Berard, Akella & Trinkle Sec. 4.3 (intersections of half-spaces), in 3D",
    SCENE_3D,
    1e-3,
    1,
    box_drop3d_options,
    sizeof box_drop3d_options / sizeof box_drop3d_options[0],
    sizeof(struct box_drop3d_settings),
    box_drop3d_build};
