/* implicit_step.c — the assembler geometric_implicit and quasi_rigid share, 2D and 3D (implicit_step.h;
 * Chakraborty, Berard, Akella & Trinkle): the sides of each contact, the layout of the unknowns, the initial
 * guess (the previous answer for the pair, else the detection: l1 = gap / |grad f|, l2 = |grad f| / |grad g|,
 * eqs. (15)-(16) at the detected closest points), the bounds, the Newton-Euler rows of the F and J callbacks
 * (the contacts' rows are the model's), and the answers kept for the next step. */
#include "implicit_step.h"

#include "implicit_polygon.h"
#include "implicit_polyhedron.h"
#include "jacobian_add.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int implicit_step_create(struct formulation *f, const struct implicit_model *model)
{
  struct implicit_step *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->model = model;
  f->data = d;
  return 0;
}

void implicit_step_destroy(struct formulation *f)
{
  struct implicit_step *d = f->data;
  if (!d) return;
  free(d->M);
  free(d->nu0);
  free(d->papp);
  free(d->guess);
  free(d->work);
  free(d->jac);
  implicit_scaling_free(&d->scale);
  free(d->c);
  free(d->pool);
  free(d->e2);
  free(d->e3);
  implicit_answers_free(&d->prev);
  implicit_drives_free(&d->dr);
  free(d);
  f->data = NULL;
}

void implicit_step_forget(struct formulation *f)
{
  struct implicit_step *d = f->data;
  d->prev.n = 0;
}

int implicit_step_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  (void)h;
  return implicit_detect_pairs(w, f->threshold >= 0.0 ? f->threshold : w->threshold, cs);
}

/* friction impulses per contact: p_t in 2D; p_t, p_o, p_r in 3D */
static int friction_count(int dim) { return dim == 2 ? 1 : 3; }

/* the points a1, a2 (none for a closed-form model) */
static int point_count(const struct implicit_model *m, int dim) { return m->closed_form ? 0 : 2 * dim; }

static int free_count(const struct implicit_model *m, int dim, int fr)
{
  return point_count(m, dim) + m->nextra + fr * friction_count(dim);
}

/* l1, l2_1 .. l2_m2 (none for a closed-form model, whose m2 is 0), p_n (or p_ns, p_nr), sigma */
static int comp_count(const struct implicit_model *m, int m2, int fr)
{
  return (m->closed_form ? 0 : 1) + m2 + m->npn + fr;
}

int implicit_step_width(const struct implicit_model *m, int dim)
{
  return free_count(m, dim, 1) + comp_count(m, 0, 1);
}

struct implicit_index implicit_step_index(const struct implicit_step *d, int i)
{
  const struct implicit_model *m = d->model;
  int fb = d->ndof + free_count(m, d->dim, d->fr) * i, cb = d->c[i].comp, m2 = d->c[i].m2;
  int pts = fb + point_count(m, d->dim), pn = cb + comp_count(m, m2, 0) - m->npn; /* after the points, l's */
  const int cf = m->closed_form;
  return (struct implicit_index){.a1 = cf ? -1 : fb,
                                 .a2 = cf ? -1 : fb + d->dim,
                                 .db = m->nextra ? pts : -1,
                                 .dl = m->nextra ? pts + 1 : -1,
                                 .pt = d->fr ? pts + m->nextra : -1,
                                 .l1 = cf ? -1 : cb,
                                 .l2 = cf ? -1 : cb + 1,
                                 .pn = pn,
                                 .pnr = m->npn > 1 ? pn + 1 : -1,
                                 .sg = d->fr ? pn + m->npn : -1};
}

/* ---- the F and J callbacks ---- */

/* F (and J, dense row-major, when not NULL) at the unknowns x = guess + z: the Newton-Euler rows
 * -M (nu - nu^l) + p_app here, each contact's impulses and rows the model's. */
static int step_eval(struct implicit_step *d, const double *z, double *F, double *J)
{
  int n = d->n, nd = d->ndof;
  double *x = d->work;
  for (int i = 0; i < n; i++)
    x[i] = d->guess[i] + z[i];
  if (J) memset(J, 0, (size_t)n * n * sizeof *J);
  for (int r = 0; r < nd; r++) {
    double s = d->papp[r];
    for (int c = 0; c < nd; c++) {
      s -= d->M[(size_t)r * nd + c] * (x[c] - d->nu0[c]);
      jac_add(J, n, r, c, -d->M[(size_t)r * nd + c]);
    }
    F[r] = s;
  }
  for (int i = 0; i < d->nc; i++)
    if (d->model->rows[d->dim - 2](d, i, x, F, J)) return 1;
  implicit_drives_rows(&d->dr, d->h, x, F, J, n);
  for (int i = 0; i < n; i++)
    if (!isfinite(F[i])) return 1;
  return 0;
}

/* The solver's callbacks on its unknowns y (z = C y, the rows R F: implicit_scaling.h). */
static int step_F(void *ctx, const double *y, double *F)
{
  struct implicit_step *d = ctx;
  if (step_eval(d, implicit_scaling_unscale(&d->scale, y, d->work + 2 * d->n), F, NULL)) return 1;
  if (d->scale.n) implicit_scaling_rows(&d->scale, F, NULL);
  return 0;
}

static int step_J(void *ctx, const double *y, double *J)
{
  struct implicit_step *d = ctx;
  double *room = d->work + d->n;
  if (step_eval(d, implicit_scaling_unscale(&d->scale, y, d->work + 2 * d->n), room, J)) return 1;
  if (d->scale.n) implicit_scaling_rows(&d->scale, room, J);
  return 0;
}

/* -geometric_implicit_equilibrate: the scales from the Jacobian at the guess (z = 0), the bounds divided.
 * A Jacobian that cannot be evaluated there leaves the problem unscaled (the solver then meets the same
 * failure from its start). */
static int step_scaling(struct implicit_step *d, struct cp_problem *p)
{
  const int n = d->n;
  double *zero = d->work + 2 * n;
  if (implicit_grow((void **)&d->jac, &d->cap_jac, n * n > 0 ? n * n : 1, sizeof *d->jac)) return 1;
  memset(zero, 0, (size_t)n * sizeof *zero);
  if (step_eval(d, zero, d->work + n, d->jac)) return 0;
  if (implicit_scaling_set(&d->scale, n, d->jac)) return 1;
  implicit_scaling_bounds(&d->scale, p->lo, p->hi);
  return 0;
}

/* ---- pass 1: the sides of each contact and the layout ---- */

/* Body 2 of a 2D contact (a polygon's half-planes into the pool, or one function) and room for its
 * evaluations; 0, or 1 with msg. */
static int body2_2d(struct implicit_step *d, const struct world *w, int si, struct implicit_contact *ct,
                    int *npool, char *msg, size_t len)
{
  int m = implicit_side_body2_count(w, si), max = d->model->max_edges;
  if (max > 0 && m > max) {
    snprintf(msg, len, "shape %d: a polygon of %d edges (%s carries at most %d multipliers per contact)", si,
             m, d->model->name, max);
    return 1;
  }
  if (implicit_side_body2_pool(w, si, &ct->s2[1], &d->pool, &d->cap_pool, npool, &ct->m2, &ct->g2, msg, len))
    return 1;
  if (implicit_grow((void **)&d->e2, &d->cap_e2, ct->m2, sizeof *d->e2)) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  return 0;
}

/* The same in 3D: a polyhedron's half-spaces, or one function. */
static int body2_3d(struct implicit_step *d, const struct world *w, int si, struct implicit_contact *ct,
                    int *npool, char *msg, size_t len)
{
  int m = implicit_side3_body2_count(w, si), room = m > 0 ? m : 1;
  if (implicit_grow((void **)&d->pool, &d->cap_pool, *npool + room, sizeof *d->pool) ||
      implicit_grow((void **)&d->e3, &d->cap_e3, room, sizeof *d->e3)) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  m = implicit_side3_body2(w, si, &ct->s3[1], d->pool + *npool, msg, len);
  if (m < 0) return 1;
  ct->m2 = m ? m : 1;
  ct->g2 = m ? *npool : -1;
  *npool += m;
  return 0;
}

/* Contact c's sides: side 0 the model's single function, side 1 body 2; 0, or 1 after formulation_fail. */
static int contact_sides(struct formulation *f, struct implicit_step *d, const struct world *w,
                         const struct contact *c, struct implicit_contact *ct, int *npool)
{
  const int two = d->dim == 2;
  const enum shape_kind poly = two ? SHAPE_POLYGON : SHAPE_POLYHEDRON,
                        flat = two ? SHAPE_HALFPLANE : SHAPE_PLANE;
  const enum shape_kind ka = w->shapes[c->sa].kind, kb = w->shapes[c->sb].kind;
  char msg[200];
  if (d->model->accept && d->model->accept(w, c->sa, c->sb, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  if (ka == poly && kb == poly) return formulation_fail(f, d->model->refusal[d->dim - 2], c->sa, c->sb);
  int a_first = d->model->a_first(ka == flat, kb == flat, ka == poly, kb == poly);
  int sh[2] = {a_first ? c->sa : c->sb, a_first ? c->sb : c->sa};
  if (two ? implicit_side_init(w, sh[0], &ct->s2[0], msg, sizeof msg)
          : implicit_side3_init(w, sh[0], &ct->s3[0], msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  if (two ? body2_2d(d, w, sh[1], ct, npool, msg, sizeof msg)
          : body2_3d(d, w, sh[1], ct, npool, msg, sizeof msg))
    return formulation_fail(f, "%s", msg);
  if (d->model->closed_form) ct->m2 = 0; /* body 2's function is not a row of its own */
  ct->sa = sh[0];
  ct->sb = sh[1];
  ct->mu = c->mu;
  return 0;
}

/* Pass 1 over the contacts, then the step's buffers: the mass matrix, nu^l, p_app, the guess's velocity
 * block, the callbacks' room. 0, or 1 after formulation_fail. */
static int step_layout(struct formulation *f, struct implicit_step *d, const struct world *w,
                       const struct contact_set *cs, double h)
{
  const struct implicit_model *m = d->model;
  int nc = cs->n, npool = 0;
  d->dim = w->dim;
  d->fr = m->friction || w->mu > 0.0;
  implicit_answers_layout(&d->prev, d->dim, d->fr, implicit_step_width(m, d->dim));
  if (implicit_grow((void **)&d->c, &d->cap_c, nc, sizeof *d->c) ||
      (d->dim == 2 ? implicit_grow((void **)&d->e2, &d->cap_e2, 1, sizeof *d->e2)
                   : implicit_grow((void **)&d->e3, &d->cap_e3, 1, sizeof *d->e3)))
    return formulation_fail(f, "out of memory");
  if (d->dim == 3 && (w->nj > 0 || w->nm > 0 || w->nsup > 0))
    return formulation_fail(f, "joints, motors and support friction are assembled in 2D only");
  if (implicit_drives_build(&d->dr, w, h)) return formulation_fail(f, "out of memory");
  int n = w->ndof + free_count(m, d->dim, d->fr) * nc;
  d->dr.free0 = n;
  n += d->dr.nfree;
  d->nfree = n;
  for (int i = 0; i < nc; i++) {
    if (contact_sides(f, d, w, &cs->c[i], &d->c[i], &npool)) return 1;
    d->c[i].comp = n;
    n += comp_count(m, d->c[i].m2, d->fr);
  }
  d->dr.comp0 = n;
  d->dr.creep = d->creep;
  n += d->dr.ng;
  if (implicit_step_start(w, h, n, &d->M, &d->nu0, &d->papp, &d->guess) ||
      implicit_grow((void **)&d->work, &d->cap_work, 3 * n, sizeof *d->work))
    return formulation_fail(f, "out of memory");
  implicit_drives_guess(&d->dr, d->nu0, d->papp, d->M, w->ndof, d->guess);
  d->ndof = w->ndof;
  d->nc = nc;
  d->n = n;
  d->h = h;
  return 0;
}

/* ---- pass 2: the initial guess ---- */

/* The previous step's answer for the pair into the guess (its friction slots only when the step has them). */
static void guess_from_answer(struct implicit_step *d, int i, const struct implicit_answer *pv)
{
  const struct implicit_model *m = d->model;
  struct implicit_contact *ct = &d->c[i];
  struct implicit_index ix = implicit_step_index(d, i);
  const double *v = d->prev.val + pv->at;
  const int nf = point_count(m, d->dim) + m->nextra, nt = friction_count(d->dim),
            ncp = comp_count(m, ct->m2, 0);
  const int fb = d->ndof + free_count(m, d->dim, d->fr) * i; /* the free block */
  if (nf) memcpy(d->guess + fb, v, (size_t)nf * sizeof(double));
  memcpy(d->guess + ct->comp, v + nf + nt, (size_t)ncp * sizeof(double));
  if (d->fr) {
    memcpy(d->guess + ix.pt, v + nf, (size_t)nt * sizeof(double));
    d->guess[ix.sg] = v[nf + nt + ncp];
  }
  ct->axis = pv->axis;
  ct->delta0 = ix.dl >= 0 ? d->guess[ix.dl] : 0.0;
}

/* A new pair: no deflection and no impulses; in 3D the friction frame's axis, the world axis least aligned
 * with the detected normal. */
static void guess_cold(struct implicit_step *d, const struct contact *c, int i)
{
  struct implicit_contact *ct = &d->c[i];
  struct implicit_index ix = implicit_step_index(d, i);
  double *g = d->guess;
  if (ix.db >= 0) g[ix.db] = g[ix.dl] = 0.0;
  if (ix.pt >= 0)
    for (int k = 0; k < friction_count(d->dim); k++)
      g[ix.pt + k] = 0.0;
  for (int k = 0; k < d->model->npn; k++)
    g[ix.pn + k] = 0.0;
  if (ix.sg >= 0) g[ix.sg] = 0.0;
  ct->delta0 = 0.0;
  ct->axis = 0;
  if (d->dim == 3)
    for (int k = 1; k < 3; k++)
      if (fabs(c->n[k]) < fabs(c->n[ct->axis])) ct->axis = k;
}

/* |grad f| of side k of contact i at the point p, at the start of the step */
static double grad_norm(const struct implicit_step *d, int i, int k, const double *p)
{
  if (d->dim == 2) {
    struct side_eval e;
    side_eval(&d->c[i].s2[k], 0.0, d->nu0, p, &e);
    return hypot(e.G[0], e.G[1]);
  }
  struct side3_eval e;
  side3_eval(&d->c[i].s3[k], 0.0, d->nu0, p, &e);
  return sqrt(e.G[0] * e.G[0] + e.G[1] * e.G[1] + e.G[2] * e.G[2]);
}

/* A new pair with body 2 one function: the detected closest points, l1 = gap / |grad f|, l2 = |grad f| /
 * |grad g|. */
static void guess_detected(struct implicit_step *d, const struct contact *c, int i)
{
  struct implicit_index ix = implicit_step_index(d, i);
  const int a_first = d->c[i].sa == c->sa;
  const double *pt[2] = {a_first ? c->pa : c->pb, a_first ? c->pb : c->pa};
  memcpy(d->guess + ix.a1, pt[0], (size_t)d->dim * sizeof(double));
  memcpy(d->guess + ix.a2, pt[1], (size_t)d->dim * sizeof(double));
  double g1 = grad_norm(d, i, 0, pt[0]), g2 = grad_norm(d, i, 1, pt[1]);
  d->guess[ix.l1] = g1 > 0 ? fmax(c->gap, 0.0) / g1 : 0.0;
  d->guess[ix.l2] = g2 > 0 ? g1 / g2 : 1.0;
}

void implicit_step_polygon_guess(struct implicit_step *d, const struct world *w, int i, int warm)
{
  const struct implicit_contact *ct = &d->c[i];
  struct implicit_index ix = implicit_step_index(d, i);
  double *g = d->guess;
  implicit_polygon_guess(&ct->s2[0], &ct->s2[1], w->shapes[ct->sb].polygon, d->pool + ct->g2, d->h, d->nu0,
                         warm, g + ix.a1, g + ix.a2, g + ix.l1, g + ix.l2);
}

void implicit_step_polyhedron_guess(struct implicit_step *d, const struct world *w, int i, int warm)
{
  const struct implicit_contact *ct = &d->c[i];
  struct implicit_index ix = implicit_step_index(d, i);
  double *g = d->guess;
  implicit_polyhedron_guess(&ct->s3[0], &ct->s3[1], w->shapes[ct->sb].polyhedron, d->pool + ct->g2, d->h,
                            d->nu0, warm, g + ix.a1, g + ix.a2, g + ix.l1, g + ix.l2);
}

static void contact_guess(struct implicit_step *d, const struct world *w, const struct contact *c, int i)
{
  const struct implicit_contact *ct = &d->c[i];
  const struct implicit_answer *pv = implicit_answers_find(&d->prev, ct->sa, ct->sb);
  int warm = pv && pv->m2 == ct->m2;
  if (warm)
    guess_from_answer(d, i, pv);
  else
    guess_cold(d, c, i);
  if (ct->m2 > 1)
    d->model->polytope_guess[d->dim - 2](d, w, i, warm);
  else if (!warm && !d->model->closed_form)
    guess_detected(d, c, i);
}

/* ---- the problem ---- */

/* The problem's rows by kind (f->rows): p_n (or p_ns, p_nr) normal; p_t (p_o, p_r) friction; sigma slack;
 * the points, delta_bar, delta and the multipliers other. */
static struct row_counts step_counts(const struct implicit_step *d)
{
  const struct implicit_model *m = d->model;
  int other = 0, fr = d->fr * d->nc, sigma_friction = d->dim == 2 && m->sigma_is_friction_2d;
  for (int i = 0; i < d->nc; i++)
    other += point_count(m, d->dim) + m->nextra + comp_count(m, d->c[i].m2, 0) - m->npn;
  return (struct row_counts){.normal = m->npn * d->nc,
                             .friction = (friction_count(d->dim) + sigma_friction) * fr + d->dr.nfree -
                                         d->dr.nj + d->dr.nbox,
                             .slack = (sigma_friction ? 0 : fr) + d->dr.ng - d->dr.nbox,
                             .joint = d->dr.nj,
                             .velocity = d->ndof,
                             .other = other,
                             .total = d->n};
}

int implicit_step_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                           double h, struct cp_problem **out)
{
  struct implicit_step *d = f->data;
  *out = NULL;
  if (step_layout(f, d, w, cs, h)) return 1;
  for (int i = 0; i < d->nc; i++)
    contact_guess(d, w, &cs->c[i], i);
  struct cp_problem *p = cp_ncp_create(d->n, step_F, step_J, d);
  if (!p) return formulation_fail(f, "out of memory");
  for (int i = 0; i < d->n; i++) {
    p->lo[i] = i < d->nfree ? -INFINITY : -d->guess[i];
    p->hi[i] = INFINITY;
  }
  implicit_drives_bounds(&d->dr, d->guess, p->lo, p->hi);
  d->scale.n = 0;
  if (d->equilibrate && step_scaling(d, p)) {
    cp_destroy(&p);
    return formulation_fail(f, "out of memory");
  }
  snprintf(p->name, sizeof p->name, "%s%s nc=%d (z shifted by the warm start)", d->model->name,
           d->dim == 3 ? " 3D" : "", d->nc);
  f->rows = step_counts(d);
  *out = p;
  return 0;
}

void implicit_step_drive_impulse(struct formulation *f, const struct world *w, const double *y, double *g)
{
  struct implicit_step *d = f->data;
  const double *z = implicit_scaling_unscale(&d->scale, y, d->work + 2 * d->n);
  double *x = d->work; /* x = guess + z, as the callbacks have it */
  for (int i = 0; i < d->n; i++)
    x[i] = d->guess[i] + z[i];
  memset(g, 0, (size_t)w->ndof * sizeof *g);
  implicit_drives_impulse(&d->dr, x, g);
}

/* nu and the normal impulses (p_n, or p_ns + p_nr) from z; the answers kept per pair for the next step. */
int implicit_step_recover(struct formulation *f, const struct world *w, const struct contact_set *cs,
                          double h, const double *y, double *nu, double *pn)
{
  struct implicit_step *d = f->data;
  const struct implicit_model *m = d->model;
  const double *z = implicit_scaling_unscale(&d->scale, y, d->work + 2 * d->n);
  (void)h;
  (void)cs;
  for (int i = 0; i < w->ndof; i++)
    nu[i] = d->guess[i] + z[i];
  int total = 0;
  for (int i = 0; i < d->nc; i++)
    total += d->prev.width + d->c[i].m2;
  if (implicit_answers_reserve(&d->prev, d->nc > 0 ? d->nc : 1, total > 0 ? total : 1))
    return formulation_fail(f, "out of memory");
  const int nf = point_count(m, d->dim) + m->nextra, nt = friction_count(d->dim);
  for (int i = 0; i < d->nc; i++) {
    const struct implicit_contact *ct = &d->c[i];
    struct implicit_index ix = implicit_step_index(d, i);
    const int ncp = comp_count(m, ct->m2, 0), fb = d->ndof + free_count(m, d->dim, d->fr) * i;
    double *v = implicit_answers_add(&d->prev, ct->sa, ct->sb, ct->m2, ct->axis);
    for (int k = 0; k < nf; k++)
      v[k] = d->guess[fb + k] + z[fb + k];
    for (int k = 0; k < nt; k++)
      v[nf + k] = d->fr ? d->guess[ix.pt + k] + z[ix.pt + k] : 0.0;
    for (int k = 0; k < ncp; k++)
      v[nf + nt + k] = d->guess[ct->comp + k] + z[ct->comp + k];
    v[nf + nt + ncp] = d->fr ? d->guess[ix.sg] + z[ix.sg] : 0.0;
    pn[i] = 0.0;
    for (int k = 0; k < m->npn; k++)
      pn[i] += v[nf + nt + ix.pn - ct->comp + k];
  }
  return 0;
}
