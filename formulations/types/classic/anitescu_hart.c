/* anitescu_hart.c — Anitescu & Hart's successive convex relaxation of the mixed LCP (6)-(7) (Sec. 4):
 * anitescu_hart_lcp1 iterates v <- P1(mu Lambda(v)) (eq. 19) until ||Lambda(k) - Lambda(k-1)|| <= TOL;
 * anitescu_hart_lcp2 is its first iterate P1(0). P1(Gamma) solves the strictly convex QP (15),
 *   min 1/2 v'Mv + q'v  s.t.  a_ji' v + Gamma_j + Delta_j >= 0 (a_ji = n_j + mu_j d_ji),  nu~' v + Phi/h = 0,
 * assembled as its dual in the multipliers [c_nu free; y >= 0], v = v_free + M^-1 (nu~ c_nu + A' y):
 *   [nu~'M^-1nu~  nu~'M^-1A'; A M^-1nu~  A M^-1A'] [c_nu; y] + [nu~'v_free + Phi/h; A v_free + Gamma +
 * Delta], a symmetric PSD (mixed) LCP = a bound-constrained convex QP, so every registered solver applies.
 * Normal impulse c_n,j = sum_i y_ji. Lambda (eq. 17): lambda_j = max(0, max_i -d_ji' v). Delta = gap/h, Phi/h
 * and the friction directions are those of anitescu_potra, so LCP0/1/2 discretise the same step. */
#include "classic.h"
#include "formulation.h"
#include "jacobian.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

struct ah_data {
  int iterate;        /* 1: LCP1; 0: LCP2 (one round) */
  double tol;         /* -anitescu_hart_tol: TOL of the stopping test (paper: 1e-5) */
  int max_iterations; /* -anitescu_hart_max_iterations: rounds per step before giving up */
  int norm_inf;       /* -anitescu_hart_norm inf: max-norm in the stopping test (default 2, the paper's) */
  /* Columns: nj joint columns, nc kf cone-facet columns a_ji, nc kf friction directions d_ji. */
  struct jcol *col;
  int cap_col, nc, kf, nj;
  double *gamma, *lambda, *lambda_prev; /* per contact */
  int cap_c;
  double *nu_free, *work, *nu;
  int ndof;
  double change; /* ||Lambda(k) - Lambda(k-1)|| of the last round */
};

static int ah_create_with(struct formulation *f, int iterate)
{
  struct ah_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->iterate = iterate;
  f->data = d;
  return 0;
}

static int ah_create_lcp1(struct formulation *f) { return ah_create_with(f, 1); }
static int ah_create_lcp2(struct formulation *f) { return ah_create_with(f, 0); }

/* LCP1's fixed-point controls; LCP2 (one round) reads none. norm_inf is the index into "2|inf". */
static const struct option_decl ah_options[] = {
    {"anitescu_hart_tol", OPT_REAL, offsetof(struct ah_data, tol), "1e-5", "(0,inf)",
     "TOL of the stopping test ||Lambda(k) - Lambda(k-1)|| <= TOL (paper: 1e-5)"},
    {"anitescu_hart_max_iterations", OPT_INT, offsetof(struct ah_data, max_iterations), "100", "[1,1000000]",
     "fixed-point rounds per step before giving up"},
    {"anitescu_hart_norm", OPT_CHOICE, offsetof(struct ah_data, norm_inf), "2", "2|inf",
     "norm of the stopping test (2: the paper's)"},
};

static void ah_destroy(struct formulation *f)
{
  struct ah_data *d = f->data;
  if (!d) return;
  free(d->col);
  free(d->gamma);
  free(d->lambda);
  free(d->lambda_prev);
  free(d->nu_free);
  free(d->work);
  free(d->nu);
  free(d);
  f->data = NULL;
}

static int ah_reserve(struct ah_data *d, int ncol, int nc, int ndof)
{
  if (ncol > d->cap_col) {
    struct jcol *c = realloc(d->col, (size_t)ncol * sizeof *c);
    if (!c) return 1;
    d->col = c;
    d->cap_col = ncol;
  }
  if (nc > d->cap_c) {
    double *g = realloc(d->gamma, (size_t)nc * sizeof *g);
    if (g) d->gamma = g;
    double *l = realloc(d->lambda, (size_t)nc * sizeof *l);
    if (l) d->lambda = l;
    double *lp = realloc(d->lambda_prev, (size_t)nc * sizeof *lp);
    if (lp) d->lambda_prev = lp;
    if (!g || !l || !lp) return 1;
    d->cap_c = nc;
  }
  if (ndof != d->ndof || !d->nu_free) {
    free(d->nu_free);
    free(d->work);
    free(d->nu);
    d->nu_free = malloc(((size_t)ndof + 1) * sizeof *d->nu_free);
    d->work = malloc(((size_t)ndof + 1) * sizeof *d->work);
    d->nu = malloc(((size_t)ndof + 1) * sizeof *d->nu);
    if (!d->nu_free || !d->work || !d->nu) return 1;
    d->ndof = ndof;
  }
  return 0;
}

static int ah_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                       struct cp_problem **out)
{
  struct ah_data *d = f->data;
  int nc = cs->n, kf = w->dim == 2 ? 2 : f->friction_dirs, nj = jacobian_joint_rows(w);
  int m = nc * kf, n = nj + m, ncol = nj + 2 * m;
  *out = NULL;
  if (kf > 16) return formulation_fail(f, "%d friction directions (at most 16)", kf);
  if (ah_reserve(d, ncol > 0 ? ncol : 1, nc > 0 ? nc : 1, w->ndof))
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  d->nc = nc, d->kf = kf, d->nj = nj;
  if (f->round == 0) { /* a new step: Gamma = mu Lambda(0) = 0 */
    for (int i = 0; i < nc; i++)
      d->gamma[i] = d->lambda_prev[i] = 0.0;
    d->change = 0.0;
  }
  double *phi = malloc(((size_t)nj + 1) * sizeof *phi);
  struct cp_problem *p = n == 0 ? cp_lcp_create(1) : nj > 0 ? cp_mlcp_create(nj, m) : cp_lcp_create(n);
  if (!phi || !p) {
    free(phi);
    cp_destroy(&p);
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  }
  jacobian_joint_columns(w, d->col, phi);
  double dirs[3 * 16];
  for (int i = 0; i < nc; i++) {
    const struct contact *c = &cs->c[i];
    formulation_tangents(w->dim, c->n, kf, dirs);
    for (int l = 0; l < kf; l++) {
      const double *t = dirs + 3 * l;
      double a[3] = {c->n[0] + c->mu * t[0], c->n[1] + c->mu * t[1], c->n[2] + c->mu * t[2]};
      jcol_contact(w, c, a, &d->col[nj + i * kf + l]);
      jcol_contact(w, c, t, &d->col[nj + m + i * kf + l]);
    }
  }
  jacobian_free_velocity(w, h, d->nu_free, d->work);
  if (n == 0) { /* no contacts, no joints: the trivial 1x1 LCP z = 0 keeps the pipeline uniform */
    p->M[0] = 1.0;
    p->q[0] = 0.0;
  }
  /* Upper triangle, mirrored: M is exactly symmetric (the QP solvers check it). */
  for (int r = 0; r < n; r++) {
    for (int c = r; c < n; c++) {
      double v = jcol_dot_minv(&d->col[r], &d->col[c]);
      p->M[(size_t)r * n + c] = v;
      p->M[(size_t)c * n + r] = v;
    }
    p->q[r] = jcol_dot(&d->col[r], d->nu_free);
    if (r < nj) {
      p->q[r] += phi[r] / h;
    } else {
      int i = (r - nj) / kf;
      p->q[r] += d->gamma[i] + cs->c[i].gap / h;
    }
  }
  free(phi);
  snprintf(p->name, sizeof p->name, "%s ndof=%d joints=%d nc=%d k=%d round=%d", f->type->name, w->ndof, nj,
           nc, kf, f->round);
  f->rows = (struct row_counts){.joint = nj, .other = m, .total = n > 0 ? n : 1};
  *out = p;
  return 0;
}

/* nu = v_free + M^-1 (nu~ c_nu + A' y). */
static void ah_velocity(const struct ah_data *d, int ndof, const double *z, double *nu)
{
  for (int i = 0; i < ndof; i++)
    nu[i] = d->nu_free[i];
  for (int c = 0; c < d->nj + d->nc * d->kf; c++)
    jcol_axpy_minv(&d->col[c], z[c], nu);
}

static int ah_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z, double *nu, double *pn)
{
  const struct ah_data *d = f->data;
  (void)h;
  ah_velocity(d, w->ndof, z, nu);
  for (int i = 0; i < cs->n; i++) {
    pn[i] = 0.0;
    for (int l = 0; l < d->kf; l++)
      pn[i] += z[d->nj + i * d->kf + l];
  }
  return 0;
}

/* LCP1, steps 6-7 of the paper's Sec. 4A: Lambda(k) = Lambda(v(k)); stop when it moved by at most TOL (or
 * when Gamma = mu Lambda did not move at all, e.g. mu = 0: the next QP would be the same one), else
 * Gamma = mu Lambda(k) and solve again. */
static int ah_iterate(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      const double *z)
{
  struct ah_data *d = f->data;
  (void)h;
  int kf = d->kf, m = d->nc * kf;
  ah_velocity(d, w->ndof, z, d->nu);
  double change = 0.0, gamma_change = 0.0;
  for (int i = 0; i < d->nc; i++) {
    double lam = 0.0;
    for (int l = 0; l < kf; l++) {
      double s = -jcol_dot(&d->col[d->nj + m + i * kf + l], d->nu);
      if (s > lam) lam = s;
    }
    double dl = fabs(lam - d->lambda_prev[i]);
    change = d->norm_inf ? fmax(change, dl) : change + dl * dl;
    gamma_change = fmax(gamma_change, cs->c[i].mu * dl);
    d->lambda[i] = lam;
  }
  d->change = d->norm_inf ? change : sqrt(change);
  if (d->change <= d->tol || gamma_change == 0.0) return FORMULATION_ROUND_DONE;
  if (f->round + 1 >= d->max_iterations) return FORMULATION_ROUND_NO_FIXED_POINT;
  for (int i = 0; i < d->nc; i++) {
    d->gamma[i] = cs->c[i].mu * d->lambda[i];
    d->lambda_prev[i] = d->lambda[i];
  }
  return FORMULATION_ROUND_AGAIN;
}

static void ah_view(const struct formulation *f, FILE *out)
{
  const struct ah_data *d = f->data;
  fprintf(out, "  friction directions (3D) %d; QP (15) solved through its dual, a symmetric PSD LCP\n",
          f->friction_dirs);
  if (d->iterate)
    fprintf(
        out,
        "  fixed point: -anitescu_hart_tol %g, -anitescu_hart_max_iterations %d, -anitescu_hart_norm %s\n",
        d->tol, d->max_iterations, d->norm_inf ? "inf" : "2");
  else
    fprintf(out, "  one round from Gamma = 0 (pushing contacts may separate by mu lambda)\n");
}

#define AH_SHAPES                                                                                            \
  (SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE | SHAPE_SPHERE | SHAPE_POLYHEDRON | SHAPE_PLANE)

const struct formulation_type formulation_type_anitescu_hart_lcp1 = {
    .name = "anitescu_hart_lcp1",
    .summary = "fixed point of convex QPs (15) -> a solution of eq. 6-7 when it converges (small mu)",
    .paper = "Anitescu & Hart Sec. 4, eqs. 15-19, LCP1",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = AH_SHAPES,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .options = ah_options,
    .n_options = (int)(sizeof ah_options / sizeof ah_options[0]),
    .create = ah_create_lcp1,
    .assemble = ah_assemble,
    .recover = ah_recover,
    .iterate = ah_iterate,
    .destroy = ah_destroy,
    .view = ah_view,
};

const struct formulation_type formulation_type_anitescu_hart_lcp2 = {
    .name = "anitescu_hart_lcp2",
    .summary = "one convex QP (15) with Gamma = 0: eq. 6-7 up to normal velocity mu lambda (Thm 4.2)",
    .paper = "Anitescu & Hart Sec. 4, eq. 15 and Theorem 4.2, LCP2",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = AH_SHAPES,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .create = ah_create_lcp2,
    .assemble = ah_assemble,
    .recover = ah_recover,
    .destroy = ah_destroy,
    .view = ah_view,
};
