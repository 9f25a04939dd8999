/* nonconvex_lcp.c — the LCP pieces the max (Egan et al. eqs. 32-33) and summation (eqs. 34-35)
 * formulations share: side columns W_y, W_x, friction columns W_f (eqs. 5-7: 2D cone +t, -t per side with
 * mu > 0), the right-hand sides W^T (nu + M^-1 p_ext) + f/h, the tail rows of p_x, p_f and s, and recovery
 * nu+ = nu + M^-1 (W_n p_n + W_f p_f + p_ext) (eq. 3). Invariant: column j of the tail block is unknown
 * o + j, and its complementary row is row o + j. */
#include "formulation.h"
#include "nonconvex_groups.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static int grow_int(int **p, int n)
{
  int *q = realloc(*p, (size_t)n * sizeof *q);
  if (!q) return 1;
  *p = q;
  return 0;
}

int nc_lcp_setup(struct nc_lcp *L, const struct world *w, const struct contact_set *cs, double h,
                 double threshold)
{
  if (nc_groups_build(w, cs, threshold, &L->g)) return 1;
  int ns = L->g.ns;
  if (ns + 1 > L->cap_side) {
    if (grow_int(&L->fric, ns + 1) || grow_int(&L->slack, ns + 1)) return 1;
    L->cap_side = ns + 1;
  }
  L->nf = L->nsl = 0;
  for (int i = 0; i < ns; i++) {
    L->fric[i] = L->nf;
    L->slack[i] = -1;
    if (L->g.side[i].c.mu > 0.0) {
      L->nf += 2;
      L->slack[i] = L->nsl++;
    }
  }
  L->fric[ns] = L->nf;
  int ncol = ns + L->nf;
  if (ncol + 1 > L->cap_col) {
    struct jcol *c = realloc(L->col, (size_t)(ncol + 1) * sizeof *c);
    double *r = c ? realloc(L->rhs, (size_t)(ncol + 1) * sizeof *r) : NULL;
    if (c) L->col = c;
    if (!r) return 1;
    L->rhs = r;
    L->cap_col = ncol + 1;
  }
  if (w->ndof != L->ndof || !L->nu_free) {
    free(L->nu_free);
    free(L->work);
    L->nu_free = malloc(((size_t)w->ndof + 1) * sizeof *L->nu_free);
    L->work = malloc(((size_t)w->ndof + 1) * sizeof *L->work);
    if (!L->nu_free || !L->work) return 1;
    L->ndof = w->ndof;
  }
  jacobian_free_velocity(w, h, L->nu_free, L->work);
  for (int i = 0; i < ns; i++) {
    const struct contact *c = &L->g.side[i].c;
    jcol_contact(w, c, c->n, &L->col[i]);
    L->rhs[i] = jcol_dot(&L->col[i], L->nu_free) + c->gap / h;
    if (L->slack[i] < 0) continue;
    double dirs[6];
    formulation_tangents(2, c->n, 2, dirs);
    for (int l = 0; l < 2; l++) {
      int j = ns + L->fric[i] + l;
      jcol_contact(w, c, dirs + 3 * l, &L->col[j]);
      L->rhs[j] = jcol_dot(&L->col[j], L->nu_free);
    }
  }
  /* -nc_passive_sides 0: Egan's forms as printed. (Keeping the side of largest free gap rate active as well
   * was tried: it did not remove the box's infeasible LCPs and broke 2 of 25 block-hole runs.) */
  if (!L->passive_sides)
    for (int i = 0; i < L->g.ny; i++)
      L->g.side[i].passive = 0;
  return 0;
}

int nc_form_create(struct formulation *f)
{
  f->data = calloc(1, sizeof(struct nc_form));
  return f->data ? 0 : 1;
}

void nc_form_destroy(struct formulation *f)
{
  struct nc_form *d = f->data;
  if (!d) return;
  nc_lcp_free(&d->lcp);
  free(d);
  f->data = NULL;
}

void nc_lcp_free(struct nc_lcp *L)
{
  nc_groups_free(&L->g);
  free(L->col);
  free(L->rhs);
  free(L->fric);
  free(L->slack);
  free(L->nu_free);
  free(L->work);
  memset(L, 0, sizeof *L);
}

double nc_lcp_gap_rate_row(const struct nc_lcp *L, int i, double sign, double *row, int o)
{
  int ncol = L->g.ns + L->nf;
  for (int j = 0; j < ncol; j++)
    row[o + j] = sign * jcol_dot_minv(&L->col[i], &L->col[j]);
  return L->rhs[i];
}

void nc_lcp_fill_tail(const struct nc_lcp *L, double *M, double *q, int n, int o)
{
  int ns = L->g.ns, ny = L->g.ny, ncol = ns + L->nf;
  /* p_x rows: W_x^T M^-1 [W_y W_x W_f] p + W_x^T nu_free + f_x / h (convex non-penetration, eq. 5) */
  for (int i = ny; i < ns; i++)
    q[o + i] = nc_lcp_gap_rate_row(L, i, 1.0, M + (size_t)(o + i) * n, o);
  /* p_f rows: W_f^T M^-1 [W_n W_f] p + E s + W_f^T nu_free */
  for (int i = 0; i < ns; i++)
    for (int j = ns + L->fric[i]; j < ns + L->fric[i + 1]; j++) {
      double *row = M + (size_t)(o + j) * n;
      for (int c = 0; c < ncol; c++)
        row[o + c] = jcol_dot_minv(&L->col[j], &L->col[c]);
      row[o + ncol + L->slack[i]] = 1.0;
      q[o + j] = L->rhs[j];
    }
  /* s rows: U p_n - E^T p_f (friction cone) */
  for (int i = 0; i < ns; i++) {
    if (L->slack[i] < 0) continue;
    int r = o + ncol + L->slack[i];
    double *row = M + (size_t)r * n;
    row[o + i] = L->g.side[i].c.mu;
    for (int j = ns + L->fric[i]; j < ns + L->fric[i + 1]; j++)
      row[o + j] = -1.0;
    q[r] = 0.0;
  }
}

void nc_lcp_recover(const struct nc_lcp *L, const struct contact_set *cs, const double *z, int o, double *nu,
                    double *pn)
{
  int ncol = L->g.ns + L->nf;
  for (int i = 0; i < L->ndof; i++)
    nu[i] = L->nu_free[i];
  for (int j = 0; j < ncol; j++)
    jcol_axpy_minv(&L->col[j], z[o + j], nu);
  for (int k = 0; k < cs->n; k++)
    pn[k] = 0.0;
  for (int i = 0; i < L->g.ns; i++)
    pn[L->g.side[i].source] += z[o + i];
}

double nc_fastest_point_speed(const struct world *w, double h)
{
  double vmax = 0.0;
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->is_static) continue;
    double g = hypot(w->gravity[0], w->gravity[1]) + hypot(b->f[0], b->f[1]) / b->mass;
    double v = hypot(b->v[0], b->v[1]) + fabs(b->w[2]) * b->bound_radius + h * g;
    if (v > vmax) vmax = v;
  }
  return vmax;
}
