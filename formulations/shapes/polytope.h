/* polytope.h — convex polygons and polyhedra as a body's shape parts hold them (in the body's frame), with
 * their mass properties; hull3d.h makes polyhedra (qhull) and the standard solids. */
#ifndef CB_POLYTOPE_H
#define CB_POLYTOPE_H

/* Convex polygon in its body's frame. Edge i runs from vertex i to vertex (i + 1) % n; en[2i..2i+1] is its
 * outward unit normal and ed[i] the offset, so the solid is {x : en_i . x <= ed_i for all i}. */
struct polygon {
  int n;
  double *v;  /* 2n */
  double *en; /* 2n */
  double *ed; /* n */
  double area, centroid[2];
  double second_moment; /* integral of |x|^2 dA about the body origin (unit density) */
};

/* Convex polyhedron in its body's frame (filled by the 3D geometry module, e.g. from a qhull hull).
 * Face f has vertices face_vert[face_start[f] .. face_start[f+1]-1], counter-clockwise seen from outside,
 * outward unit normal fn[3f..3f+2] and offset fd[f] (solid = {x : fn_f . x <= fd_f}). Edge e joins
 * vertices edge_vert[2e], edge_vert[2e+1] and separates faces edge_face[2e], edge_face[2e+1]. */
struct polyhedron {
  int nv, nf, ne;
  double *v;       /* 3 nv */
  int *face_start; /* nf + 1 */
  int *face_vert;  /* face_start[nf] */
  double *fn;      /* 3 nf */
  double *fd;      /* nf */
  int *edge_vert;  /* 2 ne */
  int *edge_face;  /* 2 ne */
  double volume, centroid[3];
  double inertia[9]; /* about the body origin, unit density, row-major */
};

/* From points (their convex hull, counter-clockwise); NULL if degenerate. */
struct polygon *polygon_create(int n, const double *xy);
void polygon_free(struct polygon *p);
/* Moment of inertia about the body origin of a uniform polygon of the given mass. */
double polygon_inertia(const struct polygon *p, double mass);
/* Frees a polyhedron whose arrays were allocated with malloc (hull3d's constructors do so). */
void polyhedron_free(struct polyhedron *p);

#endif
