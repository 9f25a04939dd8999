/* implicit_polygon.h — a polygon side of a geometrically implicit contact (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 4.3): its inequalities and the closest-point guess. 2D. */
#ifndef CB_IMPLICIT_POLYGON_H
#define CB_IMPLICIT_POLYGON_H

#include "implicit_side.h"

/* A polygon shape as the intersection of its edges' half-planes, body frame (Sec. 4.3): writes the pg->n
 * inequalities into fn (room for cap) and returns their number; -1 with msg if si is not a polygon or has
 * more than cap edges. */
int implicit_polygon_halfplanes(const struct world *w, int si, struct convex_fn *fn, int cap, char *msg,
                                size_t len);
/* Body 2 of a contact from shape si: a polygon (its pose in s, its edges' half-planes written to g2, which
 * has room for implicit_side_body2_count(w, si) of them) or the single function of any other shape (s whole,
 * g2 untouched). Returns the inequalities written to g2 (0 for a single function), -1 with msg (a shape
 * without a function). The 2D analogue of implicit_side3_body2. */
int implicit_side_body2(const struct world *w, int si, struct gi_side *s, struct convex_fn *g2, char *msg,
                        size_t len);
/* How many inequalities implicit_side_body2 writes for shape si: a polygon's edges, else 0. */
int implicit_side_body2_count(const struct world *w, int si);
/* implicit_side_body2 into a step's pool of half-planes (*pool, room *cap_pool, *npool used; grown as
 * needed): sets *m2 (the inequalities, 1 for a single function) and *g2 (where they start in the pool, -1 for
 * a single function) and advances *npool. 0, or -1 with msg. */
int implicit_side_body2_pool(const struct world *w, int si, struct gi_side *s, struct convex_fn **pool,
                             int *cap_pool, int *npool, int *m2, int *g2, char *msg, size_t len);
/* The guess of a contact whose body 2 is the polygon pg (inequalities g2, pg->n of them) and body 1 a single
 * function, at the poses predicted with the start velocities nu0 over h: a1, a2, l1 and l2 (pg->n). With
 * warm, a1..l2 hold the previous step's answer and are kept when its a2 is still a minimiser. */
void implicit_polygon_guess(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                            const struct convex_fn *g2, double h, const double *nu0, int warm, double a1[2],
                            double a2[2], double *l1, double *l2);

/* After implicit_polygon_guess: when an edge of the polygon is a minimiser as a whole — f constant along it
 * (a face parallel to body 1's level set, e.g. a box flat on a half-plane), or, within ten steps of contact
 * at the start speeds, constant to within 1e-4 rad — a2 (and a1 with it) moves to the point of that edge
 * nearest body 2's predicted centre and that face alone gets the multiplier. Why: the guess's vertex leaves
 * both faces of the corner active with one multiplier zero, a degenerate start from which Newton's method
 * stalled on a box resting on the quasi-rigid layer (every step), and a box that had landed on a corner
 * chattered between its corners at +-1.2e-5 rad once flat (2704 of 3000 steps failed). */
void implicit_polygon_face_guess(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                                 const struct convex_fn *g2, double h, const double *nu0, double a1[2],
                                 double a2[2], double *l2);

/* The impulses' cold start of a pair that is new or was apart (the 2D counterpart of
 * implicit_polyhedron_impulses), from the guessed points a1, a2 at the predicted pose: p_n the impulse that
 * closes the predicted gap against the free velocity change with the two bodies' translational masses, and
 * friction sliding at the start velocities, p_t = -e_t mu p_n sign(v_t), sigma = e_t |v_t| (where (21) and
 * (22) both hold). Returns 1 when p_t and sigma were set (p_n always is). */
int implicit_polygon_impulses(const struct gi_side s[2], const double a1[2], const double a2[2],
                              const double *nu0, const double *papp, const double *M, int ndof, double h,
                              double mu, double et, double *pn_out, double *pt, double *sigma);

#endif
