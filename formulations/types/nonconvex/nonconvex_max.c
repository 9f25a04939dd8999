/* nonconvex_max.c — Egan, Berard & Trinkle's "max" formulation (Sec. IV eqs. 13-22, generalised in Sec. VI
 * eq. 29, matrix form eqs. 32-33): per nonconvex group max_i a_i >= 0 (the union of its sides' half-planes)
 * through the slacks c, d, g, h, p and a constant gamma; a side carries force only when in contact;
 * convex sides as Stewart-Trinkle, friction as eqs. 5-7 on every side. Groups: nonconvex_groups.h.
 * z = [c (y); d (g); g (y); h (y); p (g); p_y (y); p_x (x); p_f; s], rows in the same order (eq. 32).
 * -nc_gamma G; default per step 1 + 2 (D / h + 2 v), D = threshold + deepest penetration, v the fastest
 * point's speed bound: the paper's "twice the distance the fastest point can travel" put in a_i's units
 * (a gap rate, end-of-step gap / h), since gamma must exceed every c_i <= 1 + |min(a_i, 0)|; not the scene
 * diameter, which a long static floor inflates and 1 / h multiplies (Sec. VII: large gamma loses digits). */
#include "formulation.h"
#include "nonconvex.h"
#include "nonconvex_groups.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* gamma's "unset" is 0, so the range admits 0 and the hook refuses (0, 1]: gamma must exceed every
 * c_i, which reaches 1 at a touching side. */
static const struct option_decl ncm_options[] = {
    {"nc_gamma", OPT_REAL, offsetof(struct nc_form, param), "0", "[0,inf)",
     "gamma of the max construction, > 1 (0: computed per step, 1 + 2 ((threshold + depth) / h + 2 v))"},
    NC_PASSIVE_SIDES_OPTION,
};

static int ncm_set_from_options(struct formulation *f, char *msg, size_t len)
{
  const struct nc_form *d = f->data;
  if (d->param != 0.0 && !(d->param > 1.0)) {
    snprintf(msg, len, "-nc_gamma must exceed 1 (got %g; 0: computed per step)", d->param);
    return 1;
  }
  return 0;
}

static double ncm_auto_gamma(const struct world *w, const struct contact_set *cs, double h, double thr)
{
  /* c_i = 1 - min(a_i, 1) <= 1 + |end gap| / h with |end gap| <= (current gap) + h (relative speed); the
   * current gap of a side is within the threshold (or the penetration of its contact), the relative speed
   * at most twice the fastest point's; doubling covers the impulses' contribution. */
  double depth = contact_set_max_penetration(cs);
  return 1.0 + 2.0 * ((thr + depth) / h + 2.0 * nc_fastest_point_speed(w, h));
}

static int ncm_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                        struct cp_problem **out)
{
  struct nc_form *d = f->data;
  double thr = f->threshold >= 0.0 ? f->threshold : w->threshold;
  *out = NULL;
  if (nc_lcp_setup(&d->lcp, w, cs, h, thr))
    return formulation_fail(f, "out of memory building the sides of %d contacts", cs->n);
  const struct nc_lcp *L = &d->lcp;
  const struct nc_groups *G = &L->g;
  int y = G->ny, g = G->ng;
  int C = 0, Dd = y, Gg = y + g, H = 2 * y + g, P = 3 * y + g, o = 3 * y + 2 * g;
  int n = o + nc_lcp_tail_size(L);
  double gamma = d->param > 0.0 ? d->param : ncm_auto_gamma(w, cs, h, thr);
  d->param_used = gamma;
  struct cp_problem *p = cp_lcp_create(n > 0 ? n : 1);
  if (!p) return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  if (n == 0) {
    p->M[0] = 1.0; /* no contacts: a trivial 1 x 1 LCP keeps the pipeline uniform */
    p->q[0] = 0.0;
  }
  double *M = p->M, *q = p->q;
  for (int i = 0; i < y; i++) {
    int grp = G->side[i].group;
    double *rc = M + (size_t)(C + i) * n, *rg = M + (size_t)(Gg + i) * n;
    double *rh = M + (size_t)(H + i) * n, *rp = M + (size_t)(o + i) * n;
    /* (13-14) 0 <= c_i + a_i - 1 perp c_i */
    rc[C + i] = 1.0;
    q[C + i] = nc_lcp_gap_rate_row(L, i, 1.0, rc, o) - 1.0;
    /* (16-17) 0 <= c_i + d_group - gamma perp g_i */
    rg[C + i] = 1.0;
    rg[Dd + grp] = 1.0;
    q[Gg + i] = -gamma;
    /* (18-19) 0 <= h_i + a_i perp h_i */
    rh[H + i] = 1.0;
    q[H + i] = nc_lcp_gap_rate_row(L, i, 1.0, rh, o);
    /* (21-22) 0 <= h_i + d_group - gamma + 1 perp p_in; a passive side's row is kept >= 1 (p_in = 0) */
    rp[H + i] = 1.0;
    rp[Dd + grp] = 1.0;
    q[o + i] = 1.0 - gamma + (G->side[i].passive ? 1.0 : 0.0);
  }
  for (int j = 0; j < g; j++) {
    double *rd = M + (size_t)(Dd + j) * n, *rpp = M + (size_t)(P + j) * n;
    /* (15) 0 <= sum_{i in group} g_i - 1 perp d */
    for (int i = G->group_start[j]; i < G->group_start[j + 1]; i++)
      rd[Gg + i] = 1.0;
    q[Dd + j] = -1.0;
    /* (20) 0 <= d - gamma + 1 perp p: the group's non-penetration */
    rpp[Dd + j] = 1.0;
    q[P + j] = 1.0 - gamma;
  }
  nc_lcp_fill_tail(L, M, q, n, o);
  snprintf(p->name, sizeof p->name, "nonconvex_max y=%d g=%d x=%d", y, g, G->nx);
  f->rows = (struct row_counts){
      .normal = G->ns, .friction = L->nf, .slack = L->nsl, .other = 3 * y + 2 * g, .total = n};
  *out = p;
  return 0;
}

static int ncm_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       const double *z, double *nu, double *pn)
{
  struct nc_form *d = f->data;
  (void)w;
  (void)h;
  nc_lcp_recover(&d->lcp, cs, z, 3 * d->lcp.g.ny + 2 * d->lcp.g.ng, nu, pn);
  return 0;
}

static void ncm_view(const struct formulation *f, FILE *out)
{
  const struct nc_form *d = f->data;
  if (d->param > 0.0)
    fprintf(out, "  -nc_gamma %g (fixed)\n", d->param);
  else
    fprintf(out, "  -nc_gamma automatic: 1 + 2 ((threshold + penetration) / h + 2 v_fastest) (last %g)\n",
            d->param_used);
}

const struct formulation_type formulation_type_nonconvex_max = {
    .name = "nonconvex_max",
    .summary = "2D: Stewart-Trinkle plus nonconvex groups (union of half-planes) by the max construction",
    .paper = "Egan, Berard & Trinkle, Sec. IV eqs. 13-22, Sec. VI eq. 29, appendix eqs. 32-33",
    .dims = FORMULATION_2D,
    .shapes = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE,
    .joints = 0,
    .options = ncm_options,
    .n_options = (int)(sizeof ncm_options / sizeof ncm_options[0]),
    .create = nc_form_create,
    .set_from_options = ncm_set_from_options,
    .assemble = ncm_assemble,
    .recover = ncm_recover,
    .destroy = nc_form_destroy,
    .view = ncm_view,
};
