/* cp_fc.h — the exact Coulomb cone of the frictional-contact kind (cp.h, CP_FC): the projection onto
 * K_mu = {r : ||r_T|| <= mu r_N} and the natural-map residual the checker uses. Per contact (normal
 * component first), with u = W r + q and De Saxcé's modified velocity û = u + mu ||u_T|| e_N, the
 * problem K_mu ∋ r ⟂ û ∈ K_mu* holds iff r = P_K(r - û) (De Saxcé & Feng 1998; Acary, Brémond & Huber
 * 2018, eq. 16). The residual is sqrt(sum_c ||r_c - P_K(r_c - û_c)||^2), absolute: Siconos'
 * fc3d_compute_error / fc2d_compute_error with norm 1 (tests/solvers/core/test_fc.c checks that they agree
 * on every problem of the Siconos data folder). The relaxed variant (cp.h fc_relaxed, Anitescu's cone
 * complementarity) has the same residual with û = u: the natural map of K_mu ∋ r ⟂ u ∈ K_mu*. */
#ifndef CB_CP_FC_H
#define CB_CP_FC_H

#include "cp.h"

/* Projection of x (dim = 2 or 3 entries, normal first) onto K_mu, in place. Returns 0 when x was inside,
 * 1 when it went to the apex (x in the polar cone -K_mu*), 2 when onto the cone's boundary. */
int cp_fc_project(int dim, double mu, double *x);
/* One contact's ||r - P_K(r - û)||^2, û = u + ds mu ||u_T|| e_N; ds, the De Saxcé factor: 1 for Coulomb,
 * 0 for the relaxation (cp_fc_desaxce). */
double cp_fc_contact_error2(int dim, double mu, double ds, const double *r, const double *u);
/* The De Saxcé factor of p: 0 when p is the relaxed variant, else 1. */
static inline double cp_fc_desaxce(const struct cp_problem *p) { return p->fc_relaxed ? 0.0 : 1.0; }
/* The natural-map residual of the whole problem; u = W r + q given (p->n entries). */
double cp_fc_residual(const struct cp_problem *p, const double *r, const double *u);

#endif
