/* scenes_peg3d.c — the PEG paper's box of polyhedra (Williams, Lu & Trinkle 2016, Sec. 6, Figs. 23-24; set-up
 * from the authors' code, ../shared/notes/peg-experiments.md): the registered scene peg_box3d (the static
 * open box) and the icosahedron its driver throws in (declared in scenes.h). The box: floor
 * 10.25 x 4.25 x 0.25 centred at (0, 0, -0.125), end walls 0.25 x 4.25 x 4 at (+-5, 0, 1.75), side walls
 * 10.25 x 0.25 x 4 at (0, +-2, 1.75), each a triangulated cube mesh on its own static body; g = 9.81. */
#include "geom3d.h"
#include "hull3d.h"
#include "scene.h"
#include "scenes.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct world *scene_peg_box3d(double threshold, double mu)
{
  static const double blocks[5][6] = {
      {0, 0, -0.125, 5.125, 2.125, 0.125}, {5, 0, 1.75, 0.125, 2.125, 2},  {-5, 0, 1.75, 0.125, 2.125, 2},
      {0, 2, 1.75, 5.125, 0.125, 2},       {0, -2, 1.75, 5.125, 0.125, 2},
  };
  struct world *w = world_create(3);
  if (!w) return NULL;
  for (int i = 0; i < 5; i++) {
    struct polyhedron *box = hull3d_box(blocks[i][3], blocks[i][4], blocks[i][5]);
    struct polyhedron *tri = box ? hull3d_triangulate(box) : NULL;
    polyhedron_free(box);
    int b = world_add_body(w, 1, 0.0, 0.0);
    if (!tri || b < 0 || world_add_polyhedron(w, b, tri) < 0) {
      world_destroy(&w);
      return NULL;
    }
    memcpy(w->bodies[b].x, blocks[i], 3 * sizeof(double));
  }
  w->gravity[0] = w->gravity[1] = 0.0;
  w->gravity[2] = -9.81;
  w->mu = mu;
  w->threshold = threshold;
  if (world_finalize(w)) world_destroy(&w);
  return w;
}

int scene_peg_box3d_add_icosahedron(struct world *w)
{
  static const double q0[4] = {0.99500417, 0.02668160, 0.05336321, 0.08004481};
  int b = world_add_body(w, 0, 0.5, 0.0);
  if (b < 0 || world_add_polyhedron(w, b, hull3d_icosahedron(0.5)) < 0) return -1;
  struct body *bd = &w->bodies[b];
  memset(bd->inertia3, 0, sizeof bd->inertia3);
  bd->inertia3[0] = bd->inertia3[4] = bd->inertia3[8] = 0.1309017;
  bd->x[0] = 3.0, bd->x[1] = 0.0, bd->x[2] = 2.0;
  memcpy(bd->q, q0, sizeof q0);
  quat_normalize(bd->q);
  bd->v[0] = -5.0;
  return world_finalize(w) == 0 ? b : -1;
}

struct peg_box3d_settings {
  double threshold, mu;
};

static const struct option_decl peg_box3d_options[] = {
    {"threshold", OPT_REAL, offsetof(struct peg_box3d_settings, threshold), "0.1", "(0,inf)",
     "contact threshold (closest-feature detection of the standard model) [m]"},
    {"mu", OPT_REAL, offsetof(struct peg_box3d_settings, mu), "0", "[0,inf)", "Coulomb friction coefficient"},
};

static int peg_box3d_build(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  const struct peg_box3d_settings *s = settings;
  (void)rng;
  *w = scene_peg_box3d(s->threshold, s->mu);
  if (!*w) snprintf(msg, len, "out of memory (or qhull failed on a block)");
  return *w ? 0 : 1;
}

const struct scene_type scene_type_peg_box3d = {
    "peg_box3d",
    "the static open box of the box-of-polyhedra experiment (icosahedra come from its driver)",
    "Williams, Lu & Trinkle 2016 Sec. 6 (box of polyhedra, Figs. 23-24)",
    SCENE_3D,
    0.001,
    0,
    peg_box3d_options,
    sizeof peg_box3d_options / sizeof peg_box3d_options[0],
    sizeof(struct peg_box3d_settings),
    peg_box3d_build};
