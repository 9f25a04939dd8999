/* scene_registry.c — the one list of scenes (scene.h, design.md "Three plug-in axes"). Adding a scene: a
 * builder, `const struct scene_type scene_type_NAME` with its declared options, one extern line and one
 * entry below. */
#include "scene.h"

extern const struct scene_type scene_type_disc_on_line;
extern const struct scene_type scene_type_ngon;
extern const struct scene_type scene_type_incline;
extern const struct scene_type scene_type_incline_3d;
extern const struct scene_type scene_type_box_stack;
extern const struct scene_type scene_type_cannonball;
extern const struct scene_type scene_type_polygon_box;
extern const struct scene_type scene_type_chain;
extern const struct scene_type scene_type_pendulum;
extern const struct scene_type scene_type_pendulum_3d;
extern const struct scene_type scene_type_point_corner;
extern const struct scene_type scene_type_block_hole;
extern const struct scene_type scene_type_triangle_drop;
extern const struct scene_type scene_type_peg_box;
extern const struct scene_type scene_type_hex_pyramid;
extern const struct scene_type scene_type_superellipsoid_drop;
extern const struct scene_type scene_type_box_drop3d;
extern const struct scene_type scene_type_sphere_roll3d;

const struct scene_type *const scene_registry[] = {
    &scene_type_disc_on_line,
    &scene_type_ngon,
    &scene_type_incline,
    &scene_type_incline_3d,
    &scene_type_box_stack,
    &scene_type_cannonball,
    &scene_type_polygon_box,
    &scene_type_chain,
    &scene_type_pendulum,
    &scene_type_pendulum_3d,
    &scene_type_point_corner,
    &scene_type_block_hole,
    &scene_type_triangle_drop,
    &scene_type_peg_box,
    &scene_type_hex_pyramid,
    &scene_type_superellipsoid_drop,
    &scene_type_box_drop3d,    /* scenes_box3d.c */
    &scene_type_sphere_roll3d, /* scenes_sphere3d.c */
    NULL,
};
