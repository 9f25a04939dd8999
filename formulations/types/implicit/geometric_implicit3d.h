/* geometric_implicit3d.h — an observer's view of the 3D geometrically implicit formulation's last step
 * (Chakraborty, Berard, Akella & Trinkle, Sec. 6.2's Figs. 5a, 5b; geometric_implicit.c, and the closed-form
 * tzitzouris_pang.c): each contact's
 * closest points, impulses and slip multiplier, from the answers kept per pair of shapes. */
#ifndef CB_GEOMETRIC_IMPLICIT3D_H
#define CB_GEOMETRIC_IMPLICIT3D_H

#include "formulation.h"

/* One contact's answer at the last step: the world shapes of body 1 (f) and body 2 (g), the impulses, the
 * slip multiplier and the closest points (NAN for tzitzouris_pang, whose points are not unknowns). */
struct gi3_contact_result {
  int sa, sb;
  double pn, pt, po, pr, sigma;
  double a1[3], a2[3];
};
/* The number of contacts of the last step of a 3D geometric_implicit or tzitzouris_pang formulation (0 for
 * any other formulation); fills *out for contact i when 0 <= i < that number. */
int geometric_implicit_results(const struct formulation *f, int i, struct gi3_contact_result *out);

#endif
