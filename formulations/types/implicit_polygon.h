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
/* The guess of a contact whose body 2 is the polygon pg (inequalities g2, pg->n of them) and body 1 a single
 * function, at the poses predicted with the start velocities nu0 over h: a1, a2, l1 and l2 (pg->n). With
 * warm, a1..l2 hold the previous step's answer and are kept when its a2 is still a minimiser. */
void implicit_polygon_guess(const struct gi_side *s1, const struct gi_side *s2, const struct polygon *pg,
                            const struct convex_fn *g2, double h, const double *nu0, int warm, double a1[2],
                            double a2[2], double *l1, double *l2);

#endif
