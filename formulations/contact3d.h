/* contact3d.h — the 3D narrow phase, called by world_detect (world_detect.c) for each pair of 3D shapes
 * that the broad phase lets through. Implemented by the 3D geometry module (contact3d*.c, overlap3d.c).
 * Contract (world.h): shapes sa (on body a) and sb (on body b) of different bodies, given as indices into
 * w->shapes; append to out EVERY potential contact with gap <= threshold (not only penetrating ones), with
 * c.a/c.b/c.sa/c.sb set, unit normal n from b towards a, gap = n . (pa - pb) (negative when penetrating),
 * world points pa on a and pb on b, features fa/fb with ids (vertex-face, edge-edge, vertex-edge,
 * vertex-vertex; FEATURE_SURFACE for spheres and planes). c.mu is filled by the caller.
 * Pairs: sphere-sphere, sphere-plane, sphere-polyhedron, polyhedron-plane, polyhedron-polyhedron (either
 * order). Return 0 on success, 1 on allocation failure, 2 for a pair it does not support. */
#ifndef CB_CONTACT3D_H
#define CB_CONTACT3D_H

#include "world.h"

int contact3d_shapes(const struct world *w, int sa, int sb, double threshold, struct contact_set *out);

/* Exact intersection volume of two world-placed polyhedron parts (accuracy metric); 0 when disjoint,
 * negative on failure. */
double contact3d_overlap_volume(const struct world *w, int sa, int sb);

#endif
