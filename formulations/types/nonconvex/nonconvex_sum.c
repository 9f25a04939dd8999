/* nonconvex_sum.c — Egan, Berard & Trinkle's "summation" formulation (Sec. V eqs. 24-28, generalised in
 * Sec. VI eq. 30, matrix form eqs. 34-35): per group sum_i max(-eps/h, a_i) + (n - 1) eps/h >= 0 through
 * c_i = max(-eps/h, a_i) + eps/h; the union of the sides' half-planes plus a small capped corner (Fig. 4);
 * any side of a touching group may carry force. Convex sides and friction as Stewart-Trinkle (eqs. 5-7).
 * z = [c (y); p_y (y); p_x (x); p_f; s], rows in the same order (eq. 34). Groups: nonconvex_groups.h.
 * -nc_epsilon E (a length; default 1e-3 times the smallest dynamic body's bounding diameter, or times the
 * detection threshold when every dynamic body is a point): the corner cap's size, so a fraction of the
 * bodies' size; too small and eps/h drowns in the solver tolerance (Sec. VII).
 * -nc_sum_rhs eq35|eq30: the paper's two statements of a group's row differ when the group has n >= 3
 * sides. Eq. 30 (sum max(-e, a_i) + (n - 1) e >= 0) is sum c_i >= e; the appendix's b_sum (eq. 35,
 * -(eps/h)(D'D e_y - e_y)) is sum c_i >= (n - 1) e, which for n >= 3 also refuses free space: a point
 * beyond one side by less than (n - 2) eps with the others far behind is pushed off it. Equal for n = 2. */
#include "formulation.h"
#include "nonconvex.h"
#include "nonconvex_groups.h"

#include <stddef.h>
#include <stdlib.h>

static const struct option_decl ncs_options[] = {
    {"nc_epsilon", OPT_REAL, offsetof(struct nc_form, param), "0", "[0,inf)",
     "epsilon, the corner cap's size (0: computed, 1e-3 x the smallest dynamic body's diameter) [m]"},
    NC_PASSIVE_SIDES_OPTION,
    {"nc_sum_rhs", OPT_CHOICE, offsetof(struct nc_form, sum_rhs), "eq35", "eq35|eq30",
     "a group's row: eq35 sum c >= (n-1) eps/h (the appendix), eq30 sum c >= eps/h (Sec. VI); same for n = "
     "2"},
};

static double ncs_auto_epsilon(const struct world *w, double thr)
{
  double size = 0.0;
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    if (b->is_static || !(b->bound_radius > 0.0)) continue;
    if (size == 0.0 || 2.0 * b->bound_radius < size) size = 2.0 * b->bound_radius;
  }
  return 1e-3 * (size > 0.0 ? size : thr);
}

static int ncs_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                        struct cp_problem **out)
{
  struct nc_form *d = f->data;
  double thr = f->threshold >= 0.0 ? f->threshold : w->threshold;
  *out = NULL;
  if (nc_lcp_setup(&d->lcp, w, cs, h, thr))
    return formulation_fail(f, "out of memory building the sides of %d contacts", cs->n);
  const struct nc_lcp *L = &d->lcp;
  const struct nc_groups *G = &L->g;
  int y = G->ny, o = y, n = o + nc_lcp_tail_size(L);
  double eps = d->param > 0.0 ? d->param : ncs_auto_epsilon(w, thr), e = eps / h;
  d->param_used = eps;
  struct cp_problem *p = cp_lcp_create(n > 0 ? n : 1);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  if (n == 0) {
    p->M[0] = 1.0; /* no contacts: a trivial 1 x 1 LCP keeps the pipeline uniform */
    p->q[0] = 0.0;
  }
  double *M = p->M, *q = p->q;
  for (int i = 0; i < y; i++) {
    int grp = G->side[i].group, b = G->group_start[grp], end = G->group_start[grp + 1];
    double *rc = M + (size_t)i * n, *rp = M + (size_t)(o + i) * n;
    /* (25-26) 0 <= c_i - a_i - eps/h perp c_i */
    rc[i] = 1.0;
    q[i] = -nc_lcp_gap_rate_row(L, i, -1.0, rc, o) - e;
    /* (27-28): 0 <= sum_{j in group} c_j - k eps/h perp p_in, k = n_group - 1 (eq. 35) or 1 (eq. 30); a
     * passive side's row is kept >= 1 (p_in = 0; an active side of the group enforces the sum) */
    for (int j = b; j < end; j++)
      rp[j] = 1.0;
    double k = d->sum_rhs == NC_SUM_RHS_EQ30 ? 1.0 : (double)(end - b - 1);
    q[o + i] = -e * k + (G->side[i].passive ? 1.0 : 0.0);
  }
  nc_lcp_fill_tail(L, M, q, n, o);
  snprintf(p->name, sizeof p->name, "nonconvex_sum y=%d g=%d x=%d", y, G->ng, G->nx);
  f->rows = (struct row_counts){.normal = G->ns, .friction = L->nf, .slack = L->nsl, .other = y, .total = n};
  *out = p;
  return 0;
}

static int ncs_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       const double *z, double *nu, double *pn)
{
  struct nc_form *d = f->data;
  (void)w;
  (void)h;
  nc_lcp_recover(&d->lcp, cs, z, d->lcp.g.ny, nu, pn);
  return 0;
}

static void ncs_view(const struct formulation *f, FILE *out)
{
  const struct nc_form *d = f->data;
  if (d->param > 0.0)
    fprintf(out, "  -nc_epsilon %g (fixed)\n", d->param);
  else
    fprintf(out, "  -nc_epsilon automatic: 1e-3 x smallest dynamic body's diameter (last %g)\n",
            d->param_used);
  fprintf(out, "  -nc_sum_rhs %s\n", d->sum_rhs == NC_SUM_RHS_EQ30 ? "eq30" : "eq35");
}

const struct formulation_type formulation_type_nonconvex_sum = {
    .name = "nonconvex_sum",
    .summary = "2D: Stewart-Trinkle plus nonconvex groups by the summation construction (capped corners)",
    .paper = "Egan, Berard & Trinkle, Sec. V eqs. 24-28, Sec. VI eq. 30, appendix eqs. 34-35",
    .dims = FORMULATION_2D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE,
    .joints = 0,
    .options = ncs_options,
    .n_options = (int)(sizeof ncs_options / sizeof ncs_options[0]),
    .create = nc_form_create,
    .assemble = ncs_assemble,
    .recover = ncs_recover,
    .destroy = nc_form_destroy,
    .view = ncs_view,
};
