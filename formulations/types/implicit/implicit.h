/* implicit.h — the geometrically implicit family: Chakraborty, Berard, Akella & Trinkle, "A geometrically
 * implicit time-stepping method for multibody systems with intermittent contact": the closest points are
 * unknowns of the step's mixed NCP, from the bodies' implicit functions at the end-of-step pose.
 *   geometric_implicit  Secs. 3-4, eqs. (15)-(22): the KKT rows of the distance problem (15)-(19), the
 *                       ellipsoidal friction (21)-(22); polygons and polyhedra by their sides (Sec. 4.3,
 *                       eqs. (28)-(32)); 2D (geometric_implicit.c, implicit_contact2d.c) and 3D
 *                       (geometric_implicit3d.c)
 *   quasi_rigid         Sec. 5.1, eqs. (33)-(38): a rigid core in a compliant layer (2D: quasi_rigid.c,
 *                       the disc on a half-plane of Sec. 6.3, eqs. 48-55; 3D: quasi_rigid3d.c)
 * Shared: one side's implicit function and its derivatives (implicit_side.h, implicit_side3.h), polygon and
 * polyhedron sides (implicit_polygon.h, implicit_polyhedron.h), the 3D friction rows (implicit_friction3.h),
 * derivative-carrying 3-vectors (implicit_dv.h), the answers carried from step to step (implicit_answers.h),
 * Jacobian accumulation (jacobian_add.h). */
#ifndef CB_IMPLICIT_H
#define CB_IMPLICIT_H

#include "formulation.h"
#include "implicit_answers.h"
#include "implicit_side.h"

#endif
