/* cp.h — complementarity problem kinds and the independent solution checker.
 * design.md contracts 1 and 3. Every kind is stored as one mixed complementarity problem
 *   find z with lo <= z <= hi and, per component, F_i(z) >= 0 at lo, F_i(z) <= 0 at hi, F_i(z) = 0 inside,
 * with F(z) = M z + q (LCP, mixed LCP, box MCP) or F given by callbacks (NCP/MCP).
 * LCP: lo = 0, hi = +inf. Mixed LCP (Anitescu-Hart eq. 6): the first n_eq unknowns u are free
 * (lo = -inf, hi = +inf), so their rows are the equalities A u + C v + a = 0; the rest v are
 * complementary: 0 <= v  perp  D u + B v + b >= 0. M = [A C; D B], q = [a; b].
 * Frictional contact (FC, the exact Coulomb cone; cp_fc.h): M = W (the Delassus matrix), q, and per contact
 * c of fc_dim = 2 or 3 unknowns r_c (normal first) a friction coefficient mu[c]: u = W r + q and
 * K_mu ∋ r_c ⟂ u_c + mu ||u_T,c|| e_N ∈ K_mu* (De Saxcé's modified velocity). Its bounds are unused (free).
 * Boxed LCP with a friction index (BOXED: ODE's dLCP, Bullet's btMLCPSolver): w = M z + q, lo_i <= z_i <=
 * hi_i complementary to w_i (the box MCP's conditions), except that a row with findex[i] = k >= 0 (a friction
 * row of the normal row k) has the bounds -|hi_i z_k| <= z_i <= |hi_i z_k|: hi_i holds its friction
 * coefficient mu_i and lo_i = -mu_i as stored (ODE's and Bullet's convention, so their arrays pass
 * unchanged). A normal row k is no friction row itself (findex[k] = -1). The box is Coulomb's pyramid in the
 * sense of a box: each tangent direction limited on its own (|z_t1|, |z_t2| <= mu z_n), not the cone ||z_T||
 * <= mu z_n.
 * Its variant fc_relaxed = 1 is Anitescu's cone complementarity (CCP; Anitescu 2006, the convex relaxation
 * MuJoCo and Drake solve): K_mu ∋ r_c ⟂ u_c ∈ K_mu*, without De Saxcé's term (a convex QP over the cones).
 */
#ifndef CB_CP_H
#define CB_CP_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

enum cp_kind { CP_LCP = 1, CP_MLCP = 2, CP_BOX_MCP = 4, CP_NCP = 8, CP_FC = 16, CP_BOXED = 32 };
#define CP_KIND_LAST CP_BOXED

/* Callbacks for nonlinear problems: return 0 on success, nonzero if F or J cannot be evaluated at z. */
typedef int (*cp_function)(void *ctx, const double *z, double *Fz);
typedef int (*cp_jacobian)(void *ctx, const double *z, double *J); /* dense, row-major n x n */

struct cp_problem {
  enum cp_kind kind;
  int n;      /* unknowns */
  int n_eq;   /* mixed LCP: the first n_eq unknowns are free; 0 otherwise */
  double *M;  /* n x n row-major; NULL for a callback problem */
  double *q;  /* n; NULL for a callback problem */
  double *lo; /* n lower bounds (may be -INFINITY) */
  double *hi; /* n upper bounds (may be +INFINITY) */
  cp_function F;
  cp_jacobian J;
  void *ctx;
  double scale;   /* callback problems: the scale of F for the relative tolerance (default 1) */
  int fc_dim;     /* FC: unknowns per contact (2 or 3); 0 for the other kinds */
  double *mu;     /* FC: n / fc_dim friction coefficients; NULL for the other kinds */
  int fc_relaxed; /* FC: 1 for the cone complementarity relaxation (no De Saxcé term), 0 for Coulomb */
  int *findex;    /* BOXED: per row its normal row, -1 for none (n entries); NULL for the other kinds */
  char name[128];
};

/* The largest scale the relative tolerance is multiplied by. Beyond it the data is badly scaled: with
 * ||q||_inf = 3e271 an uncapped tolerance 1e-8 ||q||_inf would call a residual of 1e262 "converged". Such a
 * problem is judged on this capped scale (an absolute residual of at most tol * 1e8), the same rule for
 * every solver; docs/solving.md "When is a solution converged?". */
#define CP_SCALE_MAX 1e8

/* The checker's verdict on a candidate z (design.md contract 3: computed the same way for every solver). */
struct cp_check {
  double natural;    /* || z - mid(lo, hi, z - F(z)) ||_inf ; for an LCP || min(z, Mz+q) ||_inf ; for FC the
                      * 2-norm over contacts of r - P_K(r - u - mu ||u_T|| e_N) (cp_fc.h); for BOXED the
                      * box MCP's with a friction row's bounds +-|mu_i z_k| at the z checked */
  double equality;   /* mixed LCP: max |F_i(z)| over the free rows; 0 otherwise */
  double scale;      /* min(data_scale, CP_SCALE_MAX): what the tolerance is multiplied by */
  double data_scale; /* max(1, ||q||_inf) for linear problems, p->scale for callback problems */
  int nonfinite;     /* z or F(z) holds NaN or Inf */
};

struct cp_problem *cp_lcp_create(int n);
struct cp_problem *cp_mlcp_create(int n_eq, int m);
struct cp_problem *cp_box_create(int n); /* linear box MCP; bounds start as [0, +inf) */
struct cp_problem *cp_ncp_create(int n, cp_function F, cp_jacobian J, void *ctx);
/* Frictional contact of nc contacts in dimension dim (2 or 3): W zero, q zero, mu zero. */
struct cp_problem *cp_fc_create(int dim, int nc);
/* Boxed LCP with friction index of n unknowns: M zero, q zero, bounds [0, +inf), findex -1 everywhere. */
struct cp_problem *cp_boxed_create(int n);
/* 0 when a boxed problem's friction index and bounds are well formed: findex[i] in [-1, n), not i, pointing
 * at a row that is no friction row; a friction row's mu = hi_i finite and >= 0 with lo_i = -hi_i; any other
 * row lo_i <= hi_i, lo_i < +inf, hi_i > -inf. Else 1 with why naming the first bad row. */
int cp_boxed_invalid(const struct cp_problem *p, char *why, size_t len);
struct cp_problem *cp_duplicate(const struct cp_problem *p);
void cp_destroy(struct cp_problem **p);

const char *cp_kind_name(enum cp_kind kind);
int cp_is_linear(const struct cp_problem *p);

/* F(z) and its Jacobian; return 0 on success. */
int cp_eval_F(const struct cp_problem *p, const double *z, double *Fz);
int cp_eval_J(const struct cp_problem *p, const double *z, double *J);

/* What the tolerance is multiplied by: min(max(1, ||q||_inf), CP_SCALE_MAX) for linear problems, the
 * declared scale (capped) for callback ones; *data_scale (if not NULL) gets it before the cap. Every solver
 * that stops on its own test uses this, so that its stop and the checker's verdict agree. */
double cp_scale(const struct cp_problem *p, double *data_scale);
/* The same for a q of n entries (a solver's reduced LCP, a library's copy): min(max(1, ||q||_inf), cap). */
double cp_scale_q(int n, const double *q);
/* The independent checker. work: n doubles (may be NULL: allocated inside). Returns 0 on success. */
int cp_check(const struct cp_problem *p, const double *z, double *work, struct cp_check *c);
/* max over entries of |p->M - M| and |p->q - q| (M n x n row-major, q n entries, n = p->n): how far an
 * assembled problem is from a printed or reference one. */
double cp_data_max_diff(const struct cp_problem *p, const double *M, const double *q);
/* Converged iff finite and natural <= tol * scale and equality <= tol * scale (scale capped, above). */
int cp_check_passes(const struct cp_check *c, double tol);

/* A cheap witness that M (n x n, row-major) is not copositive on a face of the simplex: x = t e_i + (1 - t)
 * e_j >= 0 with x^T M x = a t^2 + b t (1 - t) + c (1 - t)^2 < 0 for some t in [0, 1] (a = M_ii, c = M_jj,
 * b = M_ij + M_ji), i.e. a < 0, or b < -2 sqrt(a c) with a, c >= 0. Lemke's secondary ray proves an LCP
 * infeasible only for copositive-plus M (Cottle, Pang & Stone, Thm. 4.4.13), so a ray on such an M is a
 * limit of the method, not an answer (the nonconvex corners of Egan et al.'s max formulation have such
 * matrices). O(n^2): only after a ray. 1 with *wi, *wj (wi == wj: a negative diagonal), else 0. */
int cp_not_copositive(const double *M, int n, int *wi, int *wj);

/* The bounds of row i at z: a boxed problem's friction row's +-|mu_i z_k| (ODE's dLCP and Bullet's
 * btDantzigLCP: |hi_i x_findex|), else lo_i, hi_i (every other kind: findex is NULL). Inline: the splitting
 * methods call it per row and sweep. */
static inline void cp_boxed_bounds(const struct cp_problem *p, const double *z, int i, double *lo, double *hi)
{
  int k = p->findex ? p->findex[i] : -1;
  if (k < 0) {
    *lo = p->lo[i];
    *hi = p->hi[i];
    return;
  }
  double b = fabs(p->hi[i] * z[k]);
  *lo = -b;
  *hi = b;
}
/* The islands of a linear problem (cp_islands.c): the connected components of M's pattern (i - j where M_ij
 * or M_ji is nonzero), independent problems. order (n entries) gets the unknowns island by island, islands
 * numbered by their smallest unknown, ascending within; island k is order[start[k]] ... order[start[k+1]-1]
 * (start: n + 1 entries). Returns the number of islands, -1 for a callback problem or on allocation failure.
 * O(n^2): one pass over M's rows. */
int cp_islands(const struct cp_problem *p, int *order, int *start);
/* The problem of the k unknowns idx (ascending, an island of p): M_BB, q_B and their bounds, of p's kind
 * (a mixed LCP's free unknowns stay first). NULL on allocation failure or for a callback problem. */
struct cp_problem *cp_island_problem(const struct cp_problem *p, const int *idx, int k);

/* Projection of a value onto [lo, hi]. */
static inline double cp_mid(double lo, double hi, double x) { return x < lo ? lo : (x > hi ? hi : x); }

#endif
