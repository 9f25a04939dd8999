/* bounded_block.h — the world's bounded-impulse groups for the formulations that eliminate the velocity:
 * the support friction of the 2.5D model (Berard et al., "daVinci Code", ICRA 2007, after Mason: each
 * support point's in-plane friction impulse bounded by mu N_i h, N_i its known normal force) and the
 * force-limited velocity motors (impulse bounded by max_force h). Each group is Stewart–Trinkle's friction
 * law (Egan, Berard & Trinkle eqs. 5-7) with a known bound B in place of mu p_n:
 *   0 <= beta_k  perp  lambda + d_k' nu+ - d_k' v_target  >= 0     (k = 1..K, directions d_k)
 *   0 <= lambda  perp  B - sum_k beta_k                    >= 0
 * so the impulse sum beta_k d_k opposes the velocity error and is at its bound while the error is not zero
 * (maximal dissipation over the polygon of directions). A support point takes its dirs directions evenly
 * spaced in the plane; a motor the two directions +-axis with v_target = speed along +axis. */
#ifndef CB_BOUNDED_BLOCK_H
#define CB_BOUNDED_BLOCK_H

#include "jacobian.h"

struct bounded_block {
  struct jcol *col; /* the directions d_k of every group, group by group */
  double *offset;   /* per direction: -d_k' v_target (q's constant beside d_k' nu+) */
  int *group;       /* per direction: its group */
  double *bound;    /* per group: B [N s] */
  int ncol, ngroup, cap_col, cap_group;
};

/* The directions and bounds of w's supports and motors for a step of length h (none: ncol = ngroup = 0).
 * 0, or 1 on allocation failure. */
int bounded_block_build(struct bounded_block *bb, const struct world *w, double h);
void bounded_block_free(struct bounded_block *bb);

#endif
