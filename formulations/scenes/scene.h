/* scene.h — the scene registry (design.md, "Three plug-in axes"): a scene is a named builder of a world
 * with declared options (option_table.h), beside the formulation and solver registries. The C builders of
 * scenes.h stay as they are; each scene type wraps one of them (scene_types.c) and scene_registry.c lists
 * them. Adding a scene: a builder, its type table, one line in scene_registry.c.
 *
 * Options. A scene's options are read from the PETSc options database as -<prefix><option>; the prefix is
 * "<scene>_" unless the caller gives one (so -cannonball_rows 16, -polygon_box_n 50). A scene *spec*
 * "name:opt=value:opt=value" overrides options inline ("cannonball:rows=16"), so that one sweep axis can
 * hold several instances of a scene; a value in the spec wins over the database. Every value goes through
 * the one strict reader (type, range), and messages name the scene and the option.
 *
 * Randomness. A random scene declares a "seed" option (its own GSL mt19937 stream, so that an instance is
 * fixed by its options alone and every method of a sweep sees the same one); seed 0 draws the seed from
 * the caller's rng instead (an error when the caller passes none). Library code: messages are returned in
 * msg, never printed. */
#ifndef CB_SCENE_H
#define CB_SCENE_H

#include "option_table.h"
#include "world.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>

enum scene_dims { SCENE_2D = 1, SCENE_3D = 2 };

#define SCENE_SPEC_MAX 1024 /* a spec with every option of a scene inline (the grasp study: 19) */

struct scene_type {
  const char *name;    /* [a-z0-9_] */
  const char *summary; /* one line: what is built */
  const char *paper;   /* paper and section / figure the scene comes from */
  unsigned dims;       /* SCENE_2D or SCENE_3D */
  double h;            /* the time step the scene is set up for [s] (its source's), for drivers without an
                          h axis */
  int falls;           /* 1: bodies start apart and fall (a driver timing a settled state steps first) */
  const struct option_decl *options;
  int n_options;
  size_t settings_size; /* of the struct the option rows fill */
  /* Builds a finalised world from the settings; rng may be NULL (see "Randomness"). 0 on success; 1 with
   * msg saying why. */
  int (*build)(const void *settings, gsl_rng *rng, struct world **w, char *msg, size_t len);
};

/* The registry (scene_registry.c), NULL-terminated. */
extern const struct scene_type *const scene_registry[];
const struct scene_type *scene_find(const char *name);
/* One entry per scene: name, dims, summary, paper, h, and its options with -<name>_ prefix. */
void scene_registry_print(FILE *out);

/* The scene named by spec's name part; 1 with msg "unknown scene 'x'; valid: a,b,..." when absent. */
int scene_lookup(const char *spec, const struct scene_type **t, char *msg, size_t len);
/* Builds and checks the world (at least one body, finalised). 0 on success; 1 with msg. */
int scene_build(const struct scene_type *t, const void *settings, gsl_rng *rng, struct world **w, char *msg,
                size_t len);
/* Looks the spec up, reads its options (as scene_settings_from_options) and builds. 0 on success. */
int scene_create_from_options(const char *spec, PetscOptions opts, const char *prefix, gsl_rng *rng,
                              struct world **w, char *msg, size_t len);
/* The same without the database: defaults and the spec's inline values. */
int scene_create_from_spec(const char *spec, gsl_rng *rng, struct world **w, char *msg, size_t len);
/* Checks a spec (name, inline options) without building: for a driver's setup. 0 when valid. */
int scene_spec_check(const char *spec, PetscOptions opts, const char *prefix, char *msg, size_t len);

#endif
