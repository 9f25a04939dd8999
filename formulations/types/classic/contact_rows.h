/* contact_rows.h — what the velocity-level contact steps without slack rows share: coulomb_cone (the exact
 * cone, kind fc) and boxed_lcp (the engines' box, kind boxed) build the same rows and differ only in the
 * problem kind and the bounds they put on them. Per contact (normal first) d = 2 (2D) or 3 (3D) Jacobian
 * columns: the normal and the first tangent(s) of formulation_tangents; W = J M^-1 J' (the Delassus matrix,
 * symmetric positive semidefinite), q = J nu_free with psi/h added on each normal row (Egan et al.'s
 * stabilisation; beta psi/h when penetrating, the -NAME_penetration_correction option at
 * offsetof(struct contact_rows, correction)); recovery as Stewart-Trinkle eq. 3: nu+ = nu_free + M^-1 J' r.
 */
#ifndef CB_CONTACT_ROWS_H
#define CB_CONTACT_ROWS_H

#include "formulation.h"
#include "jacobian.h"

struct contact_rows {
  struct jcol *col; /* d columns per contact: normal, tangent(s) */
  int cap;
  double *nu_free, *work;
  int ndof;
  double correction; /* beta, the type's -NAME_penetration_correction */
  double cfm;        /* boxed_lcp's -boxed_lcp_cfm (0 for coulomb_cone): cfm / h added to W's diagonal */
  int relaxed;       /* anitescu_ccp: the cone problem is the relaxation (cp.h fc_relaxed) */
};

/* create / destroy hooks of a formulation whose f->data is a struct contact_rows */
int contact_rows_create(struct formulation *f);
void contact_rows_destroy(struct formulation *f);
/* The columns of every contact and nu_free; 0, or 1 with the formulation's message (out of memory). */
int contact_rows_columns(struct formulation *f, const struct world *w, const struct contact_set *cs,
                         double h);
/* W and q into M (n x n, n = nc d) and q: the columns built last. */
void contact_rows_fill(const struct contact_rows *d, const struct contact_set *cs, int dim, double h,
                       double *M, double *q);
/* The recover hook: nu = nu_free + M^-1 J' z, pn the normal impulses. */
int contact_rows_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                         const double *z, double *nu, double *pn);
/* The view hook: the penetration correction. */
void contact_rows_view(const struct formulation *f, FILE *out);
/* coulomb_cone's assemble hook (kind fc; relaxed when the rows say so), also anitescu_ccp's. */
int coulomb_cone_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                          double h, struct cp_problem **out);

#endif
