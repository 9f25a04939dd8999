/* implicit.h — the geometrically implicit family: Chakraborty, Berard, Akella & Trinkle, "A geometrically
 * implicit time-stepping method for multibody systems with intermittent contact": the closest points are
 * unknowns of the step's mixed NCP, from the bodies' implicit functions at the end-of-step pose.
 *   geometric_implicit  Secs. 3-4, eqs. (15)-(22): the KKT rows of the distance problem (15)-(19), the
 *                       ellipsoidal friction (21)-(22); polygons and polyhedra by their sides (Sec. 4.3,
 *                       eqs. (28)-(32)); geometric_implicit.c (2D rows: implicit_contact2d.c)
 *   quasi_rigid         Sec. 5.1, eqs. (33)-(38): a rigid core in a compliant layer (the disc on a half-plane
 *                       of Sec. 6.3, eqs. 48-55); quasi_rigid.c
 * Both, in 2D and 3D, are one assembler (implicit_step.h: the layout of the unknowns, the guess, the bounds,
 * the F / J callbacks, the answers kept per pair, implicit_answers.h, and carried, implicit_carry.h)
 * parameterised by a model. Shared rows: one side's implicit function and its derivatives (implicit_side.h,
 * implicit_side3.h), polygon and polyhedron sides (implicit_polygon.h, implicit_polyhedron.h), the 2D and 3D
 * contact parts (implicit_contact2d.h, implicit_contact3d.h), the 3D friction rows (implicit_friction3.h),
 * a 2D world's joints, motors and support friction (implicit_drives.h),
 * derivative-carrying 3-vectors (implicit_dv.h), Jacobian accumulation and the gap rows (jacobian_add.h). */
#ifndef CB_IMPLICIT_H
#define CB_IMPLICIT_H

#include "formulation.h"
#include "implicit_answers.h"
#include "implicit_side.h"

#endif
