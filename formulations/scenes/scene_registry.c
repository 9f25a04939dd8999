/* scene_registry.c — the one list of scenes (scene.h, design.md "Three plug-in axes"). Adding a scene: a
 * builder with `const struct scene_type scene_type_NAME` and its declared options (scene_types.c, or a file
 * of its own such as scenes_box3d.c), and one line X(NAME) below; X declares it and lists it. */
#include "scene.h"

#define SCENES(X)                                                                                            \
  X(disc_on_line)                                                                                            \
  X(ngon)                                                                                                    \
  X(superellipse_on_line)                                                                                    \
  X(incline)                                                                                                 \
  X(incline_3d)                                                                                              \
  X(box_stack)                                                                                               \
  X(cannonball)                                                                                              \
  X(polygon_box)                                                                                             \
  X(chain)                                                                                                   \
  X(pendulum)                                                                                                \
  X(pendulum_3d)                                                                                             \
  X(point_corner)                                                                                            \
  X(point_polygon)                                                                                           \
  X(block_hole)                                                                                              \
  X(triangle_drop)                                                                                           \
  X(peg_box)                                                                                                 \
  X(peg_box3d)                                                                                               \
  X(robot_grasp)                                                                                             \
  X(grasp)                                                                                                   \
  X(hex_pyramid)                                                                                             \
  X(superellipsoid_drop)                                                                                     \
  X(box_drop3d)                                                                                              \
  X(sphere_roll3d)                                                                                           \
  X(sphere_two_spheres)                                                                                      \
  /* one line X(NAME) per scene, above this one */

#define DECLARE(name) extern const struct scene_type scene_type_##name;
SCENES(DECLARE)
#undef DECLARE

#define ENTRY(name) &scene_type_##name,
const struct scene_type *const scene_registry[] = {SCENES(ENTRY) NULL};
#undef ENTRY
