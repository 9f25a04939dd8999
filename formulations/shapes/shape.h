/* shape.h — bodies as intersections of convex inequalities f_i(xi) <= 0 in the body frame, with value,
 * gradient and Hessian: the geometry of the geometrically implicit time-stepper (Chakraborty, Berard,
 * Akella, Trinkle, "A geometrically implicit time-stepping method for multibody systems with intermittent
 * contact", Sec. 4.1 (one convex function per body) and Sec. 4.3 (intersections, eqs. (23)-(32))).
 *
 * One inequality (struct convex_fn) lives in a local frame placed in the body frame by a centre c and a
 * rotation R (local -> body, row-major 3x3; 2D uses its top-left 2x2): f(xi) = g(R^T (xi - c)) with
 *   ball / ellipsoid         g(x) = sum_k (x_k / a_k)^2 - 1                    (the paper's unit disc, eq.
 * 41) superellipse(oid) (Barr) g(x) = ((x/a)^p2 + (y/b)^p2)^(p1/p2) + (z/c)^p1 - 1  (3D; 2D: (x/a)^p1 +
 * (y/b)^p1 - 1) half-plane / half-space  g(x) = n . x - d with |n| = 1 (c = 0, R = I) The exponents are even
 * integers >= 2, so every g is convex and C^2 where the contact lives (the boundary); p = 2 is the
 * ellipse(oid). A convex part (struct convex_part) is the intersection of its m inequalities (a polygon /
 * polyhedron is m half-planes / half-spaces f_i = n_i . xi - d_i); a body (struct implicit_body) is a union
 * of convex parts, contacts being taken per pair of parts. Constructors refuse what is not convex or not
 * closed where it must be (an odd or < 2 exponent, a zero or negative semi-axis, a zero normal, a polygon /
 * polyhedron with no interior or unbounded, a vertex list that is not convex), returning 1 with a message
 * naming the shape and what is wrong. */
#ifndef CB_SHAPE_H
#define CB_SHAPE_H

#include <stddef.h>

enum convex_fn_kind {
  CONVEX_ELLIPSOID = 1,      /* ball / disc when the semi-axes are equal */
  CONVEX_SUPERELLIPSOID = 2, /* Barr's superquadric with even exponents p1, p2 */
  CONVEX_HALFSPACE = 3,      /* n . xi - d (half-plane in 2D) */
};

struct convex_fn {
  enum convex_fn_kind kind;
  int dim;        /* 2 or 3 */
  double c[3];    /* centre of the local frame in the body frame */
  double R[9];    /* local -> body rotation, row-major (2D: top-left 2x2, R[8] = 1) */
  double a[3];    /* semi-axes (ellipsoid, superellipsoid) */
  int p1, p2;     /* even exponents >= 2 (superellipsoid; 2D uses p1 only) */
  double n[3], d; /* half-space: unit outward normal and offset, body frame */
};

#define CONVEX_PART_MAX 64 /* inequalities per convex part */

struct convex_part {
  int dim;
  int m;                               /* inequalities */
  int bounded;                         /* 0 for a lone half-plane / half-space */
  struct convex_fn f[CONVEX_PART_MAX]; /* the part is { xi : f_i(xi) <= 0 for all i } */
  char name[48];                       /* what it was built as: "disc", "polygon(6)", ... */
};

struct implicit_body {
  int nparts;
  struct convex_part *parts; /* malloc'd; implicit_body_free releases it */
};

/* Value of one inequality at xi (body frame, dim entries); grad (dim) and hess (dim x dim row-major) are
 * filled when not NULL. */
double convex_fn_eval(const struct convex_fn *f, const double *xi, double *grad, double *hess);

/* max_i f_i(xi) over the part (<= 0 inside or on it); *active (may be NULL) is the maximising index. */
double convex_part_value(const struct convex_part *p, const double *xi, int *active);

/* Constructors of one-inequality parts and polytopes. Each returns 0, or 1 with msg (len bytes) naming the
 * shape and what is wrong. Axes and exponents: dim entries (a[2], p2 ignored in 2D). */
int convex_part_ellipsoid(struct convex_part *p, int dim, const double c[3], const double a[3], char *msg,
                          size_t len);
int convex_part_ball(struct convex_part *p, int dim, const double c[3], double radius, char *msg, size_t len);
int convex_part_superellipsoid(struct convex_part *p, int dim, const double c[3], const double a[3], int p1,
                               int p2, char *msg, size_t len);
/* The solid { xi : n . xi <= d } (n normalised here; a zero n is refused). */
int convex_part_halfspace(struct convex_part *p, int dim, const double n[3], double d, char *msg, size_t len);
/* Intersection of m half-spaces n_i . xi <= d_i (normals dim entries each, normalised here). Refused when
 * it has no interior or is unbounded (checked by linear programs). */
int convex_part_polytope(struct convex_part *p, int dim, int m, const double *normals, const double *d,
                         char *msg, size_t len);
/* A convex polygon from its vertices in counter-clockwise order (2D); refused if not strictly convex. */
int convex_part_polygon(struct convex_part *p, int nv, const double *xy, char *msg, size_t len);
/* The regular N-gon inscribed in the circle of the given radius about c, a vertex at angle phase. */
int convex_part_regular_polygon(struct convex_part *p, const double c[2], double radius, int nsides,
                                double phase, char *msg, size_t len);

/* Places a part in its body: each inequality's frame is rotated by R (row-major 3x3) and shifted by t. */
void convex_part_transform(struct convex_part *p, const double R[9], const double t[3]);

/* Unions: appends a copy of part (a non-convex body is a union of convex parts). 0 or 1 (allocation). */
int implicit_body_add(struct implicit_body *b, const struct convex_part *part);
void implicit_body_free(struct implicit_body *b);
/* min over parts of the part's value: <= 0 inside the union. */
double implicit_body_value(const struct implicit_body *b, const double *xi);

#endif
