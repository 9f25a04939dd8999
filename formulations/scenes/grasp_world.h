/* grasp_world.h — the grasp study's world built from the world's own parts (grasp_world.c): the lock
 * piece, its support tripod, the linked force-limited jaws. Scene "grasp" of the registry. */
#ifndef CB_GRASP_WORLD_H
#define CB_GRASP_WORLD_H

#include "grasp.h"
#include "world.h"

#include <stddef.h>

/* Bodies of the world grasp_world_build makes, in this order. */
enum { GRASP_BODY_PART = 0, GRASP_BODY_RIGHT_JAW = 1, GRASP_BODY_LEFT_JAW = 2 };
/* A jaw is the quadrant of eqs. (58)-(61) cut to a box of this side [m], its centre of mass at the box's
 * centre: the right jaw's fingertip (the half-opening s) is at its x - GRASP_JAW_BOX / 2. */
#define GRASP_JAW_BOX 0.2

struct grasp_world_settings {
  double x, y; /* the gripper centre relative to the part's centre [mm] */
  double mass, jaw_mass, close_speed, close_force, damping, g;
  int dirs;
  double mu_support, mu_grip;
  double tripod[3][2]; /* support points, part frame [mm] */
  double start_clear;  /* [m] */
  double margin;       /* [m] */
};

/* 0 with *w (world_destroy it), or 1 with msg (the centre of mass outside the tripod, out of memory). */
int grasp_world_build(const struct grasp_world_settings *s, struct world **w, char *msg, size_t len);

#endif
