/* boxed_class.h — the solver benchmark's boxed-LCP classes (problem_class.h): the boxed LCP with friction
 * index (cp.h kind boxed) that the formulation boxed_lcp (ODE's / Bullet's velocity step) assembles at a
 * fixed step of one of our scenes, stepped there with pgs. The scenes are fixed by their specs (no random
 * stream, as bench_step), so a class is one instance whatever the seed. Assembled with -boxed_lcp_cfm 1e-10
 * (W + 1e-10 / h I, ODE's constraint force mixing at a hundred-thousandth of its default): without it a box
 * resting on its four corners makes W singular, which no pivoting method factors.
 *   boxed_incline       incline:theta=30 (2D, a sliding block), step 20
 *   boxed_incline_3d    incline_3d:theta=30 (3D, a sliding box), step 20
 *   boxed_hex_pyramid   hex_pyramid (3D, six vertex contacts at rest), step 20
 *   boxed_box_stack     box_stack (2D, boxes stacked at rest), step 20
 *   boxed_cannonball    cannonball:rows=6 (2D, Anitescu-Hart's disc pile), step 20
 *   boxed_polygon_box   polygon_box:n=50 (2D, polygons fallen into a box), step 60 */
#ifndef CB_BOXED_CLASS_H
#define CB_BOXED_CLASS_H

#include "cp.h"

#include <stddef.h>

/* 1 when name is one of the classes above. */
int cp_boxed_class_valid(const char *name);
/* The class's problem: 0 with *p; 1 with err (the scene or a step failed). */
int cp_boxed_class_create(const char *name, struct cp_problem **p, char *err, size_t len);

#endif
