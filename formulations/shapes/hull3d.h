/* hull3d.h — convex polyhedra (struct polyhedron, world.h) built through qhull, their mass properties,
 * builders for the shapes the experiments use (box, icosahedron, random hulls) and world placement.
 * Every constructor returns a malloc'd polyhedron (free with polyhedron_free, world.h) or NULL on
 * degenerate input (fewer than 4 affinely independent points) or allocation failure. Faces are merged
 * (a box has 6 quadrilaterals), listed counter-clockwise seen from outside, with outward unit normals. */
#ifndef CB_HULL3D_H
#define CB_HULL3D_H

#include "polytope.h"

#include <gsl/gsl_rng.h>

/* Convex hull of n points (xyz interleaved) in the body frame; points inside the hull are dropped. */
struct polyhedron *hull3d_create(int n, const double *xyz);
/* 1 when the points are (nearly) coplanar — the case hull3d_create refuses: the four most spread points
 * span a tetrahedron smaller than 1e-9 of their spread cubed. */
int hull3d_points_degenerate(int n, const double *xyz);
/* A copy of src with every face fanned into triangles from its first vertex (coplanar triangles keep the
 * face's plane; the new diagonals are flat edges, dihedral angle pi). The PEG box of icosahedra uses
 * block meshes with 12 triangles (../shared/notes/peg-experiments.md); NULL on allocation failure. */
struct polyhedron *hull3d_triangulate(const struct polyhedron *src);
/* Box with half extents hx, hy, hz centred at the origin. */
struct polyhedron *hull3d_box(double hx, double hy, double hz);
/* Regular icosahedron with the given circumradius centred at the origin, vertices (0, ±1, ±φ) and their
 * cyclic permutations scaled. */
struct polyhedron *hull3d_icosahedron(double circumradius);
/* Hull of n >= 4 points uniform in the ball of the given radius, then translated so that its centroid
 * is the origin (the body origin is the centre of mass, world.h). */
struct polyhedron *hull3d_random(gsl_rng *rng, int n, double radius);

/* Recomputes volume, centroid and inertia (unit density, about the body origin) from v and the faces
 * (divergence theorem over a fan triangulation: tetrahedra from the origin). */
void hull3d_mass_properties(struct polyhedron *p);
/* Translates every vertex by d (updating offsets and mass properties); hull3d_centre moves the centroid
 * to the origin. */
void hull3d_translate(struct polyhedron *p, const double d[3]);
void hull3d_centre(struct polyhedron *p);
/* Inertia tensor about the centroid for the given mass (parallel-axis theorem), row-major. */
void hull3d_central_inertia(const struct polyhedron *p, double mass, double out[9]);
/* 1 when n_f . x <= fd_f + tol for every face. */
int hull3d_contains(const struct polyhedron *p, const double x[3], double tol);
/* Largest vertex distance from the origin. */
double hull3d_bound_radius(const struct polyhedron *p);

/* A polyhedron placed in the world: world-frame vertices, face normals and offsets (x_world = R x + t,
 * n_world = R n, d_world = d + n_world . t); topology stays in ph. One allocation, freed by
 * hull3d_placed_free. centre/radius: a bounding sphere. */
struct hull3d_placed {
  const struct polyhedron *ph;
  double *v, *fn, *fd;
  double centre[3], radius;
};
int hull3d_place(const struct polyhedron *ph, const double R[9], const double t[3],
                 struct hull3d_placed *out);
void hull3d_placed_free(struct hull3d_placed *p);
/* 1 when the world point x is inside the placed polyhedron (up to tol). */
int hull3d_placed_contains(const struct hull3d_placed *p, const double x[3], double tol);

#endif
