/* sparse_mlcp.h — a synthetic sparse mixed LCP of any size with the block structure of a time-stepping
 * contact problem (Anitescu-Hart eq. 6 with a compliance): M = [A  -J^T; J  eps I], A the block-diagonal mass
 * matrix of planar bodies (m, m, m/2 per body), J one row per contact between two neighbouring bodies of a
 * grid (random entries on the 3 + 3 velocities it couples), eps = 1e-2 (a compliant contact). M + M^T =
 * diag(2A, 2 eps I) is positive definite, so the problem has one solution and its Schur complement
 * eps I + J A^-1 J^T is a P-matrix (Lemke terminates with it). Nonzeros grow like n, not n^2: the class
 * for the dense-versus-sparse crossover of fb_newton_sparse. */
#ifndef CB_SPARSE_MLCP_H
#define CB_SPARSE_MLCP_H

#include "cp.h"

/* n unknowns (n >= 5): n / 5 bodies (3 free unknowns each), the rest contacts (about 2 per body). q: the
 * free rows -A v with v uniform in [-1, 1], the contact rows uniform in [-0.5, 0.5] (some contacts close,
 * some open). Same (n, seed), same problem bit for bit. NULL on bad n or allocation failure. */
struct cp_problem *cp_test_sparse_mlcp(int n, unsigned long seed);

#endif
