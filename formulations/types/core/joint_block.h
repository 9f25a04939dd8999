/* joint_block.h — bilateral joints for the formulations that eliminate the velocity (stewart_trinkle,
 * corrective, peg, lnc): nu+ = nu_free + M^-1 (sum over unknowns of col_u z_u + nu~ c_nu). The joint
 * impulses c_nu become n_j free unknowns in front of the formulation's LCP, which turns it into the mixed LCP
 * of cp.h (the first n_eq unknowns free), with the joint rows of Anitescu & Hart eq. 6 in the eliminated form
 *   nu~' nu+ + Phi / h = 0            (Phi: the joints' violation, the drift stabilisation anitescu_potra
 * uses) and every row of the LCP gaining nu~'s columns: a row rdir' nu+ (- rsub' nu+) + ... sees rdir' M^-1
 * nu~. This is the PEG authors' MLCP for the robot-arm grasp (their PEG2_dynamics.m: Gb in the first block,
 * free bounds), with the velocities eliminated as Egan et al. eq. 3 does for contacts. A world without joints
 * leaves the LCP untouched. */
#ifndef CB_JOINT_BLOCK_H
#define CB_JOINT_BLOCK_H

#include "jacobian.h"
#include "solver.h"

struct joint_block {
  struct jcol *col; /* nu~: n_j columns (jacobian_joint_columns) */
  double *phi;      /* their violations */
  int nj, cap;
};

void joint_block_free(struct joint_block *jb);
/* Wraps *p (an LCP of the formulation, consumed) into the mixed LCP [c_nu; z] when w has joints; rdir[r]
 * (minus rsub[r]; rsub or rsub[r] may be NULL) is row r's velocity direction, NULL for a row without nu+
 * (friction-cone rows); ucol[u] is unknown u's impulse column, NULL for one that is not an impulse (slacks).
 * 0, or 1 on allocation failure (*p is then destroyed and NULL). */
int joint_block_wrap(struct joint_block *jb, const struct world *w, double h, const double *nu_free,
                     const struct jcol *const *rdir, const struct jcol *const *rsub,
                     const struct jcol *const *ucol, struct cp_problem **p);
/* nu += M^-1 nu~ c_nu, c_nu = z[0 .. n_j) (the wrapped problem's solution). */
void joint_block_recover(const struct joint_block *jb, const double *z, double *nu);

#endif
