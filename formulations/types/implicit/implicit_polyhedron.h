/* implicit_polyhedron.h — a polyhedron side of a geometrically implicit contact in 3D (Chakraborty, Berard,
 * Akella & Trinkle, Sec. 4.3): its inequalities and the closest-point guess; the 3D analogue of
 * implicit_polygon.h. */
#ifndef CB_IMPLICIT_POLYHEDRON_H
#define CB_IMPLICIT_POLYHEDRON_H

#include "implicit_side3.h"

/* A polyhedron shape as the intersection of its faces' half-spaces n_f . xi - d_f <= 0, body frame (Sec.
 * 4.3): writes the nf inequalities into fn (room for cap) and returns their number; -1 with msg if si is not
 * a polyhedron or has more than cap faces. */
int implicit_polyhedron_halfspaces(const struct world *w, int si, struct convex_fn *fn, int cap, char *msg,
                                   size_t len);
/* Body 2 of a contact from shape si: a polyhedron (its pose in s, its faces' half-spaces written to g2,
 * which has room for implicit_side3_body2_count(w, si) of them) or the single function of any other shape (s
 * whole, g2 untouched). Returns the inequalities written to g2 (0 for a single function), -1 with msg (more
 * than CONVEX_PART_MAX faces, or a shape without a function). */
int implicit_side3_body2(const struct world *w, int si, struct gi_side3 *s, struct convex_fn *g2, char *msg,
                         size_t len);
/* How many inequalities implicit_side3_body2 writes for shape si: a polyhedron's faces, else 0. */
int implicit_side3_body2_count(const struct world *w, int si);
/* The guess of a contact whose body 2 is the polyhedron ph (inequalities g2, ph->nf of them) and body 1 a
 * single function, at the poses predicted with the start velocities nu0 over h: a1, a2, l1 and l2 (ph->nf).
 * With warm, a1..l2 hold the previous step's answer and are kept when its a2 is still a minimiser. */
void implicit_polyhedron_guess(const struct gi_side3 *s1, const struct gi_side3 *s2,
                               const struct polyhedron *ph, const struct convex_fn *g2, double h,
                               const double *nu0, int warm, double a1[3], double a2[3], double *l1,
                               double *l2);
/* The impulses' cold start of a contact whose body 2 is a polyhedron (s[0] body 1, s[1] body 2; points a1, a2
 * already guessed; nu0, the applied impulses papp = h F_ext and the dense mass matrix M of ndof rows): p_n
 * (*pn) the impulse that closes the predicted gap over the step for the translational masses alone, and,
 * when the contact slides and p_n > 0, the friction (p_t, p_o, p_r) of (21)-(22) at that p_n opposing the
 * start slip with sigma = sqrt(sum e_k^2 v_k^2) (returns 1; else 0 and p, sigma untouched). axis: the pair's
 * frame axis (geometric_implicit.c). Why: at p_n = p_t = sigma = 0 the friction rows' derivatives vanish,
 * and a box launched sliding on the plane failed its first steps with every Newton solver. */
int implicit_polyhedron_impulses(const struct gi_side3 s[2], const double a1[3], const double a2[3],
                                 const double *nu0, const double *papp, const double *M, int ndof, double h,
                                 double mu, const double e[3], int axis, double *pn, double p[3],
                                 double *sigma);

#endif
