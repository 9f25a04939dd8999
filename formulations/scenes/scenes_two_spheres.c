/* scenes_two_spheres.c — the registered scene sphere_two_spheres: Chakraborty, Berard, Akella & Trinkle,
 * Sec. 6.2, Figs. 4-5 (after Trinkle et al. 2001). Bodies 0 and 1 are static spheres, of radius 10 at the
 * origin and of radius 9 at (0, 11.4, 0); body 2 a unit sphere (m = 1, J = 2/5 I) at
 * (0, 6.62105263157895, 8.78417110772903), at rest and touching both, pushed by the constant applied force
 * (1.0, 2.6, -9.81) — the paper's force includes the weight, so the world's gravity is zero. Friction mu on
 * both contacts; detection threshold 0.5. */
#include "scene.h"

#include <stddef.h>
#include <stdio.h>

struct two_spheres_settings {
  double mu;
};

static const struct option_decl two_spheres_options[] = {
    {"mu", OPT_REAL, offsetof(struct two_spheres_settings, mu), "0.2", "[0,inf)",
     "Coulomb friction coefficient of both contacts (the paper's 0.2)"},
};

static int two_spheres_build(const void *settings, gsl_rng *rng, struct world **out, char *msg, size_t len)
{
  const struct two_spheres_settings *s = settings;
  static const double big_c[2][3] = {{0, 0, 0}, {0, 11.4, 0}}, big_r[2] = {10.0, 9.0}, cz[3] = {0, 0, 0};
  (void)rng;
  *out = NULL;
  struct world *w = world_create(3);
  int ok = w != NULL;
  for (int c = 0; ok && c < 2; c++) {
    int g = world_add_body(w, 1, 0, 0);
    ok = g >= 0 && world_add_sphere(w, g, big_c[c], big_r[c]) >= 0;
  }
  int b = ok ? world_add_body(w, 0, 1.0, 0.4) : -1;
  if (b < 0 || world_add_sphere(w, b, cz, 1.0) < 0 || world_finalize(w)) {
    snprintf(msg, len, "out of memory");
    world_destroy(&w);
    return 1;
  }
  w->gravity[2] = 0.0;
  w->mu = s->mu;
  w->threshold = 0.5;
  struct body *sphere = &w->bodies[b];
  sphere->x[0] = 0.0, sphere->x[1] = 6.62105263157895, sphere->x[2] = 8.78417110772903;
  sphere->f[0] = 1.0, sphere->f[1] = 2.6, sphere->f[2] = -9.81;
  *out = w;
  return 0;
}

const struct scene_type scene_type_sphere_two_spheres = {
    "sphere_two_spheres",
    "a unit sphere pushed while touching two large fixed spheres: rolls, slides on one, then leaves both",
    "Chakraborty, Berard, Akella & Trinkle Sec. 6.2, Figs. 4-5",
    SCENE_3D,
    0.01,
    0,
    two_spheres_options,
    sizeof two_spheres_options / sizeof two_spheres_options[0],
    sizeof(struct two_spheres_settings),
    two_spheres_build};
