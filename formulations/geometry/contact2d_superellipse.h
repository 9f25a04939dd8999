/* contact2d_superellipse.h — the explicit 2D narrow phase of a superellipse (world.h's SHAPE_SUPERELLIPSE)
 * against a half-plane and against a disc (contact2d_superellipse.c), for the linear formulations and the
 * physics check's shared detection. Against a polygon or another superellipse: contact2d_convex.h. */
#ifndef CB_CONTACT2D_SUPERELLIPSE_H
#define CB_CONTACT2D_SUPERELLIPSE_H

#include "contact_set.h"

/* The point of the superellipse |x/a|^p + |y/b|^p <= 1 (its own frame) farthest along u (u != 0): the
 * boundary point whose outward normal is u / |u|. Closed form by the dual norm q = p / (p - 1). */
void superellipse_support(double a, double b, int p, const double u[2], double x[2]);
/* Superellipse part sa (contact body a) against half-plane part sb (body b): the one deepest point, normal
 * the half-plane's. Appends when the gap <= thr. 0, or 1 out of memory. */
int contact2d_superellipse_halfplane(const struct world *w, int sa, int sb, double thr,
                                     struct contact_set *out);
/* Disc part sa (body a) against superellipse part sb (body b): the disc centre's nearest boundary point of
 * the superellipse, normal the superellipse's outward normal there. 0, or 1 out of memory. */
int contact2d_disc_superellipse(const struct world *w, int sa, int sb, double thr, struct contact_set *out);

#endif
