/* contact3d.h — the 3D narrow phase, called by world_detect (world_detect.c) for each pair of 3D shapes
 * that the broad phase lets through. Implemented by the 3D geometry module (contact3d*.c, overlap3d.c).
 * Contract (world.h): shapes sa (on body a) and sb (on body b) of different bodies, given as indices into
 * w->shapes; append to out EVERY potential contact with gap <= threshold (not only penetrating ones), with
 * c.a/c.b/c.sa/c.sb set, unit normal n from b towards a, gap = n . (pa - pb) (negative when penetrating),
 * world points pa on a and pb on b, features fa/fb with ids (vertex-face, edge-edge, vertex-edge,
 * vertex-vertex; FEATURE_SURFACE for spheres and planes). c.mu is filled by the caller.
 * Pairs: sphere-sphere, sphere-plane, sphere-polyhedron, polyhedron-plane, polyhedron-polyhedron, and a
 * superellipsoid with a plane, a sphere, a superellipsoid or a polyhedron (contact3d_superellipsoid.h),
 * either order. Return 0 on success, 1 on allocation failure, 2 for a pair it does not support. */
#ifndef CB_CONTACT3D_H
#define CB_CONTACT3D_H

#include "contact_set.h"
#include "hull3d.h"
#include "overlap3d.h"

int contact3d_shapes(const struct world *w, int sa, int sb, double threshold, struct contact_set *out);
/* 1 when contact3d_shapes has a narrow phase for the pair of kinds (two planes have none). */
int contact3d_supported(enum shape_kind a, enum shape_kind b);

/* Exact intersection volume of two world-placed polyhedron parts (accuracy metric); 0 when disjoint,
 * negative on failure. */
double contact3d_overlap_volume(const struct world *w, int sa, int sb);
/* Sum over the body pairs that may collide (not both static, not in the same nonzero group) of the
 * intersection volumes of their polyhedron parts (the box-of-icosahedra metric); negative on failure. */
double contact3d_total_overlap(const struct world *w);
/* The corrective 3D contact of the PEG experiments (../shared/notes/peg-experiments.md): when polyhedron
 * parts sa, sb overlap, ONE contact at the mean m of the intersection's vertices, on the face plane (of
 * either part) with the largest signed distance psi at m (the least penetrated face), normal from b to
 * a, gap 2 psi, pa = m + psi n, pb = m - psi n; nothing when they do not overlap. 0, or 1 on failure. */
int contact3d_corrective(const struct world *w, int sa, int sb, struct contact_set *out);

/* Narrow-phase kernels on world-placed geometry (contact3d.c), usable without a world (tests, PEG).
 * Each appends every potential contact with gap <= threshold to out, with a = b = sa = sb = -1 and
 * mu = 0 left for the caller, the normal pointing from the SECOND argument (b) towards the FIRST (a),
 * gap = n . (pa - pb). Planes are solids {x : n . x <= d} in the world frame (n unit).
 * Polyhedron pairs give vertex-face candidates (a vertex within the threshold of a face plane whose
 * projection falls inside the face; a vertex inside the other body takes its least-penetrated face),
 * edge-edge candidates (closest points interior to both segments, normal = the edges' cross product
 * oriented out of b and lying in both edges' normal cones), and vertex-edge / vertex-vertex candidates
 * for a separated vertex in the Voronoi region of an edge / vertex; contacts with the same points and
 * normal are reported once. Return 0, or 1 on allocation failure. */
int contact3d_sphere_sphere(const double ca[3], double ra, const double cb[3], double rb, double threshold,
                            struct contact_set *out);
int contact3d_sphere_plane(const double c[3], double r, const double n[3], double d, double threshold,
                           struct contact_set *out);
int contact3d_polyhedron_plane(const struct hull3d_placed *a, const double n[3], double d, double threshold,
                               struct contact_set *out);
int contact3d_sphere_polyhedron(const double c[3], double r, const struct hull3d_placed *b, double threshold,
                                struct contact_set *out);
int contact3d_polyhedron_polyhedron(const struct hull3d_placed *a, const struct hull3d_placed *b,
                                    double threshold, struct contact_set *out);
/* Swaps the roles of the two bodies in a contact (a <-> b, points, features; the normal flips). */
void contact3d_flip(struct contact *c);
/* 1 when x (on or near the plane of face f) projects inside face f of the placed polyhedron (up to tol). */
int contact3d_face_contains(const struct hull3d_placed *p, int f, const double x[3], double tol);

#endif
