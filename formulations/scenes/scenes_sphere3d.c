/* scenes_sphere3d.c — the registered scene sphere_roll3d: a uniform solid sphere (I = 2/5 m r^2) touching the
 * ground plane z <= 0 (or `gap` above it, to drop) with a horizontal velocity v0 in the direction `heading`
 * and a spin about the vertical axis, no other spin, friction mu. Sliding friction brings it to rolling at 5
 * v0 / 7 after 2 v0 / (7 mu g) (m v0^2 / 7 of kinetic energy lost); a frictional moment about the normal (e_r
 * of Chakraborty, Berard, Akella & Trinkle's ellipsoid, eq. (5), Sec. 3) brakes the spin. For the 3D friction
 * of the geometrically implicit formulations (quasi_rigid on a compliant plane, geometric_implicit); the LCP
 * formulations take it too. */
#include "scene.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

struct sphere_roll3d_settings {
  double radius, mass, mu, v0, heading, spin, gap;
};

#define ROW(field, type, def, range, help)                                                                   \
  {                                                                                                          \
#field, type, offsetof(struct sphere_roll3d_settings, field), def, range, help                           \
  }
static const struct option_decl sphere_roll3d_options[] = {
    ROW(radius, OPT_REAL, "1", "(0,inf)", "radius [m]"),
    ROW(mass, OPT_REAL, "1", "(0,inf)", "mass [kg] (inertia 2/5 m r^2)"),
    ROW(mu, OPT_REAL, "0.3", "[0,inf)", "Coulomb friction coefficient"),
    ROW(v0, OPT_REAL, "2", "[0,inf)", "horizontal speed at the start [m/s]"),
    ROW(heading, OPT_REAL, "0", "[-180,180]", "direction of the start velocity from the x axis [degrees]"),
    ROW(spin, OPT_REAL, "0", "(-inf,inf)", "angular velocity about the vertical axis at the start [rad/s]"),
    ROW(gap, OPT_REAL, "0", "[0,inf)",
        "height of the sphere's lowest point above the ground at the start [m]"),
};
#undef ROW

static int sphere_roll3d_build(const void *settings, gsl_rng *rng, struct world **out, char *msg, size_t len)
{
  const struct sphere_roll3d_settings *s = settings;
  const double up[3] = {0, 0, 1}, o[3] = {0, 0, 0};
  (void)rng;
  *out = NULL;
  struct world *w = world_create(3);
  int g = w ? world_add_body(w, 1, 0, 0) : -1, b = -1;
  if (g >= 0 && world_add_plane(w, g, up, 0.0) >= 0)
    b = world_add_body(w, 0, s->mass, 0.4 * s->mass * s->radius * s->radius);
  if (b < 0 || world_add_sphere(w, b, o, s->radius) < 0 || world_finalize(w)) {
    snprintf(msg, len, "out of memory");
    world_destroy(&w);
    return 1;
  }
  w->mu = s->mu;
  struct body *bd = &w->bodies[b];
  bd->x[2] = s->radius + s->gap;
  bd->v[0] = s->v0 * cos(s->heading * M_PI / 180.0);
  bd->v[1] = s->v0 * sin(s->heading * M_PI / 180.0);
  bd->w[2] = s->spin;
  *out = w;
  return 0;
}

const struct scene_type scene_type_sphere_roll3d = {
    "sphere_roll3d",
    "a solid sphere launched along the ground plane without rolling spin: slides, then rolls at 5 v0 / 7",
    "Chakraborty, Berard, Akella & Trinkle Sec. 3 eqs. (5), (21)-(22) (ellipsoidal friction), in 3D",
    SCENE_3D,
    1e-3,
    0,
    sphere_roll3d_options,
    sizeof sphere_roll3d_options / sizeof sphere_roll3d_options[0],
    sizeof(struct sphere_roll3d_settings),
    sphere_roll3d_build};
