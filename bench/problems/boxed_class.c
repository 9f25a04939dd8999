/* boxed_class.c — the boxed-LCP classes of the solver benchmark (boxed_class.h). */
#include "boxed_class.h"

#include "run.h"
#include "scene.h"
#include "simulation.h"

#include <petscsys.h>
#include <string.h>

static const struct boxed_class {
  const char *name, *spec;
  int steps;
} boxed_classes[] = {
    {"boxed_incline", "incline:theta=30", 20},     {"boxed_incline_3d", "incline_3d:theta=30", 20},
    {"boxed_hex_pyramid", "hex_pyramid", 20},      {"boxed_box_stack", "box_stack", 20},
    {"boxed_cannonball", "cannonball:rows=6", 20}, {"boxed_polygon_box", "polygon_box:n=50", 60},
};
enum { N_BOXED_CLASSES = (int)(sizeof boxed_classes / sizeof boxed_classes[0]) };

static const struct boxed_class *boxed_class_find(const char *name)
{
  for (int i = 0; i < N_BOXED_CLASSES; i++)
    if (strcmp(name, boxed_classes[i].name) == 0) return &boxed_classes[i];
  return NULL;
}

int cp_boxed_class_valid(const char *name) { return boxed_class_find(name) != NULL; }

int cp_boxed_class_create(const char *name, struct cp_problem **p, char *err, size_t len)
{
  const struct boxed_class *c = boxed_class_find(name);
  const struct scene_type *t = NULL;
  struct simulation sim = {0};
  struct world *w = NULL;
  struct run_summary sum;
  PetscOptions opts = NULL;
  int rc = 1;
  *p = NULL;
  if (!c) return snprintf(err, len, "%s: not a boxed class", name), 1;
  if (scene_lookup(c->spec, &t, err, len) || scene_create_from_spec(c->spec, NULL, &w, err, len)) return 1;
  if (PetscOptionsCreate(&opts) || PetscOptionsSetValue(opts, "-boxed_lcp_cfm", "1e-10")) {
    snprintf(err, len, "%s: cannot make an options object", name);
    world_destroy(&w);
    goto cleanup;
  }
  if (simulation_open(&sim, w, "boxed_lcp", "pgs", opts) ||
      simulation_run(&sim, t->h, c->steps, NULL, 0, &sum)) {
    snprintf(err, len, "%s: stepping %s with boxed_lcp failed", name, c->spec);
    goto cleanup;
  }
  const struct cp_problem *q = stepper_problem(sim.st);
  if (!q || q->n == 0) {
    snprintf(err, len, "%s: no contact at step %d of %s", name, c->steps, c->spec);
    goto cleanup;
  }
  if (!(*p = cp_duplicate(q))) {
    snprintf(err, len, "%s: out of memory", name);
    goto cleanup;
  }
  snprintf((*p)->name, sizeof(*p)->name, "%s_step%d", name, c->steps);
  rc = 0;
cleanup:
  simulation_close(&sim);
  if (opts) PetscOptionsDestroy(&opts);
  return rc;
}
