/* contact2d_convex.h — the explicit 2D narrow phase of a superellipse against a convex polygon or another
 * superellipse, by the separating-axis maximum over the shapes' support functions (contact2d_convex.c), for
 * the linear formulations, the shared detection the geometrically implicit formulation takes its pairs
 * from, and the physics check. */
#ifndef CB_CONTACT2D_CONVEX_H
#define CB_CONTACT2D_CONVEX_H

#include "contact_set.h"

/* Parts sa (contact body a) and sb (body b), each a superellipse or a polygon, at least one of them a
 * superellipse: one contact, normal from b to a, gap the signed distance (minus the penetration depth when
 * they overlap); appended when the gap <= thr. 0, or 1 out of memory. */
int contact2d_convex(const struct world *w, int sa, int sb, double thr, struct contact_set *out);

#endif
