/* contact3d_superellipsoid.h — the explicit 3D narrow phase of a superellipsoid (world.h's
 * SHAPE_SUPERELLIPSOID) against a plane (closed-form support point), a sphere and another superellipsoid
 * (separating-axis maximum over the support functions) and a convex polyhedron (the same maximum over the
 * polyhedron's normal fan: faces, edge arcs, vertex cones), for the linear formulations and the shared
 * detection the geometrically implicit formulations take their pairs from (contact3d_superellipsoid.c). */
#ifndef CB_CONTACT3D_SUPERELLIPSOID_H
#define CB_CONTACT3D_SUPERELLIPSOID_H

#include "contact_set.h"

/* The point of the superellipsoid sum_k |x_k / a_k|^p <= 1 (its own frame) farthest along u (u != 0): the
 * boundary point whose outward normal is u / |u|. Closed form by the dual norm q = p / (p - 1). */
void superellipsoid_support(const double a[3], int p, const double u[3], double x[3]);
/* 1 when the pair of kinds, one of them a superellipsoid, has a narrow phase here. */
int contact3d_superellipsoid_supported(enum shape_kind a, enum shape_kind b);
/* Parts sa (contact body a) and sb (body b), at least one a superellipsoid: one contact, normal from b to
 * a, gap the signed distance (minus the penetration depth when they overlap), appended when gap <= thr.
 * 0, 1 out of memory, 2 for a pair not supported. */
int contact3d_superellipsoid_shapes(const struct world *w, int sa, int sb, double thr,
                                    struct contact_set *out);

#endif
