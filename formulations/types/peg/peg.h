/* peg.h — the PEG family: Williams, Lu & Trinkle 2016, polytopal exact geometry: potential contacts between
 * polytope features within a distance of h, with intercontact constraints that keep corners from crossing.
 *   peg  eqs. 20-24 (U, I, X constraints), 29-37 (applicability), 43-49 (the time-stepping LCP, single
 *        primary contact); 2D polygons (peg_model.c, peg2d.c) and 3D polyhedra (peg3d.c, Sec. 5.2)
 *   lnc  Nguyen's locally nonconvex model as the paper states it, eqs. 12-14, 24: U and I without X
 * Shared: the 2D contact geometry and the standard model's trap count (peg2d.h), the constraint model and
 * its LCP (peg_lcp.h). */
#ifndef CB_PEG_H
#define CB_PEG_H

#include "formulation.h"
#include "peg2d.h"
#include "peg_lcp.h"

#endif
