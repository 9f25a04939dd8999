/* contact_rows.c — the rows coulomb_cone and boxed_lcp share (contact_rows.h). */
#include "contact_rows.h"

#include "classic.h"

#include <stdlib.h>

int contact_rows_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct contact_rows));
  return f->data ? 0 : 1;
}

void contact_rows_destroy(struct formulation *f)
{
  struct contact_rows *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->nu_free);
  free(d->work);
  free(d);
  f->data = NULL;
}

int contact_rows_columns(struct formulation *f, const struct world *w, const struct contact_set *cs, double h)
{
  struct contact_rows *d = f->data;
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3, n = nc * dim;
  if (classic_reserve((struct classic_columns){&d->col, &d->cap, &d->nu_free, &d->work, &d->ndof},
                      n > 0 ? n : 1, w->ndof))
    return formulation_fail(f, "out of memory assembling %d contacts", nc);
  jacobian_free_velocity(w, h, d->nu_free, d->work);
  double dirs[3 * 4];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    /* 3D: of 4 evenly spaced tangents the first two are orthogonal; 2D: +t */
    formulation_tangents(w->dim, c->n, w->dim == 2 ? 2 : 4, dirs);
    jcol_contact(w, c, c->n, &d->col[i * dim]);
    for (int t = 1; t < dim; t++)
      jcol_contact(w, c, dirs + 3 * (t - 1), &d->col[i * dim + t]);
  }
  return 0;
}

void contact_rows_fill(const struct contact_rows *d, const struct contact_set *cs, int dim, double h,
                       double *M, double *q)
{
  int nc = cs->n, n = nc * dim;
  for (int r = 0; r < n; r++) {
    /* W = J M^-1 J' is symmetric: each pair computed once and mirrored. Computed twice, x'(M^-1 y) and
     * y'(M^-1 x) differ by rounding, which on an entry that cancels to ~0 is a large relative difference
     * (the sphere on two spheres: 6.7e-5), and the pivoting methods refuse such a W as nonsymmetric. */
    for (int c = r; c < n; c++)
      M[(size_t)r * n + c] = M[(size_t)c * n + r] = jcol_dot_minv(&d->col[r], &d->col[c]);
    q[r] = jcol_dot(&d->col[r], d->nu_free);
    M[(size_t)r * n + r] += d->cfm / h;
  }
  for (int i = 0; i < nc; i++) {
    double gap = cs->c[i].gap;
    q[i * dim] += (gap < 0.0 ? d->correction : 1.0) * gap / h;
  }
}

int contact_rows_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                         const double *z, double *nu, double *pn)
{
  const struct contact_rows *d = f->data;
  int nc = cs->n, dim = w->dim == 2 ? 2 : 3;
  (void)h;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->nu_free[i];
  for (int c = 0; c < nc * dim; c++)
    jcol_axpy_minv(&d->col[c], z[c], nu);
  for (int i = 0; i < nc; i++)
    pn[i] = z[i * dim];
  return 0;
}

void contact_rows_view(const struct formulation *f, FILE *out)
{
  const struct contact_rows *d = f->data;
  fprintf(out, "  penetration correction %g%s\n", d->correction,
          d->relaxed ? "; the cone complementarity relaxation (no De Saxce term)" : "");
}
