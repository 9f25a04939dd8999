/* bullet.h — Bullet Physics 3.24's MLCP solvers (BulletDynamics/MLCPSolvers, libbullet-dev, double precision)
 * as backends beside ours: btDantzigSolver (ODE's dLCP, the principal pivoting method of Baraff 1994 for
 * symmetric boxed LCPs with a friction index), btLemkeSolver (Lemke's method, Kilian Grundl's, on the 2n
 * system built from an explicit inverse when bounds are used) and btSolveProjectedGaussSeidel (PGS over each
 * row's nonzeros). Bullet solves A x = b + w with lo <= x <= hi: A = M, b = -q. The C++ part is the one file
 * bullet_shim.cpp behind this C interface; the solver types are in bullet.c. */
#ifndef CB_BULLET_H
#define CB_BULLET_H

enum bullet_method { BULLET_DANTZIG, BULLET_LEMKE, BULLET_PGS };

/* Bullet's matrix, vectors and solver objects, resized (not reallocated) for each problem. */
struct bullet_ws;

struct bullet_ws *bullet_ws_create(void);
void bullet_ws_destroy(struct bullet_ws **ws);
/* Copies the problem into Bullet's types (what an engine's assembly writes into them directly); bounds
 * beyond +-clip are given as +-clip (Bullet's bounded Lemke multiplies them). findex may be NULL. x starts
 * at 0. 0 on success, 1 when out of memory. */
int bullet_ws_load(struct bullet_ws *ws, int n, const double *M, const double *q, const double *lo,
                   const double *hi, const int *findex, double clip);
/* One call of the method's solveMLCP (iterations: PGS sweeps / Lemke's pivot limit; ignored by Dantzig),
 * continuing from the x the last call left (or load's 0), x copied to z. Lemke on an LCP without bounds
 * (every lo 0, hi inf) uses Bullet's plain LCP path. Returns Bullet's claim: 1 solved, 0 not. */
int bullet_ws_solve(struct bullet_ws *ws, enum bullet_method method, int iterations, int plain_lcp,
                    double *z);

#endif
