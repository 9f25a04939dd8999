/* cone.h — the solvers of the frictional-contact kind (cp.h CP_FC, cp_fc.h): per contact c (d = 2 or 3
 * unknowns, normal first) u = W r + q, K_mu ∋ r_c ⟂ u_c + mu_c ||u_T,c|| e_N ∈ K_mu*.
 * - The Alart-Curnier function (Alart & Curnier 1991, eq. 22; Acary, Brémond & Huber 2018, "On solving
 *   contact problems with Coulomb friction", eq. 21): phi_N = r_N - max(0, r_N - rho_N u_N),
 *   phi_T = r_T - P_D(mu max(0, r_N - rho_N u_N))(r_T - rho_T u_T), D(R) the disc of radius R; phi = 0 iff
 *   r solves the contact's Coulomb problem. Its generalized Jacobian is dphi = A dr + B du (cone_local.c).
 * - fc_nsgs: nonsmooth Gauss-Seidel over contacts (Jean 1999; Acary et al. 2018 Alg. 2), each local
 *   d x d problem solved by closed forms (take-off, sticking) or a damped Newton on its AC function with a
 *   projected fixed point (De Saxcé & Feng 1998) as fallback.
 * - fc_newton: semismooth Newton on the stacked AC function (Alart & Curnier 1991; Christensen, Klarbring,
 *   Pang & Strömberg 1998), Armijo line search on 1/2 ||phi||^2, NSGS sweeps when the search fails.
 * - fc_admm: ADMM on the convex problem with the De Saxcé term as a fixed point (Acary et al. 2018,
 *   Sec. 5.4; Siconos' fc3d_admm; Boyd et al. 2011), Goldstein et al. 2014's extrapolation with restart,
 *   residual balancing of its penalty.
 * Every solver stops on the checker's residual (cp_fc_residual <= tol * scale): the harness's verdict. */
#ifndef CB_CONE_H
#define CB_CONE_H

#include "cp.h"

/* The AC function of one contact at (r, u) with parameters rho_n, rho_t > 0; when A and B are not NULL
 * they get the d x d (row-major) pieces of a generalized Jacobian: dphi = A dr + B du. */
void cone_ac_function(int d, double mu, double rho_n, double rho_t, const double *r, const double *u,
                      double *phi, double *A, double *B);

/* The local problem of contact c with the others' reactions frozen: u = Wcc r + ql (Wcc d x d row-major,
 * the diagonal block). Settings and work space of the local solver. */
struct cone_local {
  int max_it;  /* Newton iterations (and fixed-point iterations of the fallback, 10 x) */
  double tol;  /* stop when ||r - P_K(r - û)|| <= tol * max(1, |ql|, |r|, |Wcc^-1 ql|), inf norms */
  int relaxed; /* 1: the cone complementarity relaxation (cp.h fc_relaxed: û = u, a convex QP on the
                * cone, solved by accelerated projected gradient, 50 max_it steps); 0: Coulomb */
};

/* Solves the local problem from r (in: the previous reaction; out: the best found). Returns the local
 * natural-map error at the r returned. */
double cone_local_solve(const struct cone_local *s, int d, double mu, const double *Wcc, const double *ql,
                        double *r);

/* Scaling of the AC function for a contact from its diagonal block: rho = 1 / (its largest diagonal
 * entry), the same for the normal and the tangent parts. */
double cone_rho(int d, const double *Wcc);

/* Copies contact c's diagonal block of the n x n row-major W into Wcc (d x d). */
void cone_block(const struct cp_problem *p, int c, double *Wcc);

/* u = W r + q (n entries) and the checker's residual at r (cp_fc_residual). */
double cone_residual(const struct cp_problem *p, const double *r, double *u);

/* The solvers' workspaces: each *bufs[k] freed and set to NULL; or allocated with len[k] doubles (0, or 1
 * with every one freed when one allocation fails). */
void cone_buffers_free(double **const *bufs, int nb);
int cone_buffers_alloc(double **const *bufs, const size_t *len, int nb);

/* 1 when W (p->M) is exactly symmetric. */
int cone_symmetric(const struct cp_problem *p);

/* One nonsmooth Gauss-Seidel sweep over the contacts (fc_nsgs.c; fc_newton's fallback). r in place; u in:
 * W r + q, out: W r + q at the new r (updated as contacts move, so up to rounding); Wcc holds the nc
 * diagonal blocks (cone_block), d x d each; sym = cone_symmetric(p) (a contact's columns read as rows). */
void cone_nsgs_sweep(const struct cp_problem *p, const struct cone_local *s, const double *Wcc, int sym,
                     double *r, double *u);

#endif
