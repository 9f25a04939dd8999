/* scenes_superellipsoid.c — the registered scene superellipsoid_drop: one uniform Barr superellipsoid
 * |x/a|^p + |y/b|^p + |z/c|^p <= 1 (p = 2 the ellipsoid; the smooth convex bodies of Chakraborty, Berard,
 * Akella & Trinkle, Sec. 4.1, in 3D) at rest at a height above the ground plane z <= 0, tilted about the x
 * axis, falling under gravity. Inertia tensor by the Beta-function closed form (world_superellipsoid.c). The
 * shape's own refusals (odd exponent, non-positive semi-axis) reach the caller through msg. */
#include "geom3d.h"
#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

struct superellipsoid_drop_settings {
  double a, b, c;
  int p;
  double mass, mu, height, tilt;
};

#define ROW(field, type, def, range, help)                                                                   \
  {                                                                                                          \
#field, type, offsetof(struct superellipsoid_drop_settings, field), def, range, help                     \
  }
static const struct option_decl superellipsoid_drop_options[] = {
    ROW(a, OPT_REAL, "1", "(0,inf)", "semi-axis along the body's x [m]"),
    ROW(b, OPT_REAL, "0.8", "(0,inf)", "semi-axis along the body's y [m]"),
    ROW(c, OPT_REAL, "0.6", "(0,inf)", "semi-axis along the body's z [m]"),
    ROW(p, OPT_INT, "4", "[2,1000000]", "exponent (even; 2: the ellipsoid)"),
    ROW(mass, OPT_REAL, "1", "(0,inf)", "mass [kg]"),
    ROW(mu, OPT_REAL, "0.3", "[0,inf)", "Coulomb friction coefficient"),
    ROW(height, OPT_REAL, "1.5", "(0,inf)", "height of the centre at the start [m]"),
    ROW(tilt, OPT_REAL, "15", "[-180,180]", "tilt about the x axis at the start [degrees]"),
};
#undef ROW

static int superellipsoid_drop_build(const void *settings, gsl_rng *rng, struct world **out, char *msg,
                                     size_t len)
{
  const struct superellipsoid_drop_settings *s = settings;
  const double up[3] = {0, 0, 1}, zero[3] = {0, 0, 0}, id[4] = {1, 0, 0, 0}, x[3] = {1, 0, 0};
  const double a[3] = {s->a, s->b, s->c};
  (void)rng;
  *out = NULL;
  struct world *w = world_create(3);
  if (!w) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  w->mu = s->mu;
  int g = world_add_body(w, 1, 0, 0), b = -1;
  if (g >= 0 && world_add_plane(w, g, up, 0.0) >= 0) b = world_add_body(w, 0, s->mass, 1.0);
  int sh = b >= 0 ? world_add_superellipsoid(w, b, zero, id, a, s->p, msg, len) : -1;
  if (sh < 0 || world_finalize(w)) {
    if (b < 0) snprintf(msg, len, "out of memory");
    world_destroy(&w);
    return 1;
  }
  world_superellipsoid_inertia(&w->shapes[sh], s->mass, w->bodies[b].inertia3);
  w->bodies[b].x[2] = s->height;
  quat_from_axis_angle(x, s->tilt * M_PI / 180.0, w->bodies[b].q);
  *out = w;
  return 0;
}

const struct scene_type scene_type_superellipsoid_drop = {
    "superellipsoid_drop",
    "a superellipsoid (Barr, even p) tilted above the ground plane, falling",
    "Chakraborty, Berard, Akella & Trinkle Sec. 4.1 (smooth convex bodies), in 3D",
    SCENE_3D,
    1e-3,
    1,
    superellipsoid_drop_options,
    sizeof superellipsoid_drop_options / sizeof superellipsoid_drop_options[0],
    sizeof(struct superellipsoid_drop_settings),
    superellipsoid_drop_build};
