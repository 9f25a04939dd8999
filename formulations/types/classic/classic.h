/* classic.h — the classic family: velocity-level (and one acceleration-level) LCPs and mixed LCPs on the
 * contacts a shared detection finds, friction as a polyhedral cone.
 *   stewart_trinkle   Stewart & Trinkle 1996 as Egan, Berard & Trinkle write it, eqs. 3-7: z = [p_n; p_f;
 *                     s], velocity eliminated; -stewart_trinkle_detection paper: the PEG paper's experiments'
 *                     detection (stewart_trinkle_paper.c, Williams, Lu & Trinkle 2016 Secs. 2, 6)
 *   corrective        the PEG paper's "corrective" comparison model (its Sec. 6, the authors' code)
 *   anitescu_potra    Anitescu & Potra 1997 as Anitescu & Hart eq. 6: the mixed LCP, velocities free
 *   anitescu_hart_lcp1 / _lcp2  Anitescu & Hart Sec. 4: the convex relaxation iterated (eqs. 15-19) and
 *                     its one-shot form (eq. 15, Theorem 4.2)
 *   impulse_lcp       Trefny Sec. 2 eqs. 8-10 (frictionless impulses)
 *   acceleration_lcp  Baraff 1994 as Trefny Sec. 1 eqs. 1-7 (resting contact, accelerations)
 *   coulomb_cone      Moreau 1988, Jean 1999 (Acary, Brémond & Huber 2018 eqs. 1-3): stewart_trinkle's
 *                     velocity level with the exact Coulomb cone, a frictional-contact problem (kind fc)
 *   boxed_lcp         ODE / Bullet: coulomb_cone's rows with the friction as a box by friction index, a
 *                     boxed LCP (kind boxed); the shared rows in contact_rows.h
 *   anitescu_ccp      Anitescu 2006 (the cone complementarity problem; MuJoCo's and Drake's convex model):
 *                     coulomb_cone's W and q without De Saxcé's term, kind fc relaxed (the exact cone's
 *                     counterpart of Anitescu & Hart's eq. 15 with Gamma = 0)
 * Shared: the standard model's declared options (stewart_trinkle.h) and the bilateral joints' rows
 * (core/joint_block.h). */
#ifndef CB_CLASSIC_H
#define CB_CLASSIC_H

#include "formulation.h"
#include "jacobian.h"
#include "joint_block.h"
#include "stewart_trinkle.h"

/* Where a formulation keeps its velocity columns (realloc'd to *cap) and the free velocity with its work
 * vector (ndof + 1 each, remade when ndof changes). */
struct classic_columns {
  struct jcol **col;
  int *cap;
  double **nu_free, **work;
  int *ndof;
};
/* Room for ncol columns and ndof velocities (stewart_trinkle.c): 0, or 1 out of memory. */
int classic_reserve(struct classic_columns c, int ncol, int ndof);

#endif
