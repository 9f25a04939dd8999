/* fb_newton_sparse.c — the semismooth Newton method of fb_newton (Fischer-Burmeister, De Luca-Facchinei-
 * Kanzow, Math. Prog. 75 (1996) Alg. 3.1, with the same globalisation, options and retry: fb.h), with the
 * Newton system assembled and factored sparse (solver `fb_newton_sparse`; linear problems: LCP, mixed LCP,
 * box MCP). Contact LCPs and the mixed LCP of Anitescu-Hart eq. 6 / Anitescu-Potra are sparse: a contact
 * row couples the few bodies it touches, and the mass block of the mixed LCP is block diagonal. Reducing
 * the mixed LCP to an LCP (mlcp_reduce.c: B - D A^-1 C) or factoring the n x n generalised Jacobian densely
 * costs n^3 / 3 per Newton step; here the pattern of M is extracted once per problem (CSR, plus the
 * diagonal, which the row coefficients da_i always touch), and every iteration's H = diag(da) + diag(db) M
 * is factored by KLU (Davis & Palamadai Natarajan, ACM TOMS 37 (2010): fill-reducing AMD or COLAMD order,
 * optional block triangular form, partial pivoting) with the symbolic analysis done once and reused.
 * The row storage of H is the column storage of H^T, so KLU factors H^T and klu_tsolve solves with H (the
 * dense solver does the same with LAPACK's column-major view). The Levenberg-Marquardt step
 * (H^T H + lambda D) d = b is solved, as in the dense solver, through the normal equations, assembled on the
 * pattern of H^T H (found once) and factored by KLU (fbs_solve_lm says why not the augmented system).
 * Options: fb_newton's rows with the prefix -fb_newton_sparse_, plus -fb_newton_sparse_ordering amd|colamd
 * and -fb_newton_sparse_btf. Iterations and status as fb_newton (-cp_max_it, -cp_tol). */
#include "fb.h"

#include <float.h>
#include <klu.h>
#include <stdlib.h>
#include <string.h>

struct fbs_data {
  struct fb_data fb;
  int ordering; /* KLU's fill-reducing order: 0 AMD, 1 COLAMD */
  int btf;      /* KLU's block triangular pre-ordering */
};

/* One solve's state: M in CSR with the diagonal present, H in the same pattern, and the KLU objects. */
struct fbs_ctx {
  const struct cp_problem *p;
  int n, nnz;
  int *rowptr, *col, *diag; /* diag[i]: the position of (i, i) */
  double *m, *h;            /* values of M and of H */
  double *F, *zF, *work;
  unsigned char *beta; /* degenerate rows of DLFK Procedure 3.1 */
  int F_valid;
  double natural, tol_abs;
  klu_common common;
  klu_symbolic *sym;
  klu_numeric *num;
  /* The normal equations of the Levenberg-Marquardt step (fbs_normal_pattern), made at the first one. */
  int *rowof;     /* the row of each stored entry of H */
  int *tptr, *tk; /* H by columns: positions into the row storage */
  int *nptr, *ncol, *ndiag, *pos;
  double *nval;
  klu_symbolic *ksym;
};

/* Grows the entry arrays of M's CSR to hold cap entries; -1 on allocation failure. */
static int fbs_reserve(struct fbs_ctx *c, size_t cap)
{
  int *col = realloc(c->col, cap * sizeof *col);
  if (col) c->col = col;
  double *m = realloc(c->m, cap * sizeof *m);
  if (m) c->m = m;
  return col && m ? 0 : -1;
}

/* CSR of M plus the diagonal; -1 on allocation failure. One pass over the dense M, the solver's only
 * O(n^2) work besides the checker's first F (about 10 ms at n = 4000): the arrays grow as they fill, from
 * 8 entries a row, a contact row's typical count. */
static int fbs_pattern(struct fbs_ctx *c)
{
  const struct cp_problem *p = c->p;
  int n = c->n;
  size_t cap = 8 * (size_t)n + 1, k = 0;
  c->rowptr = malloc(((size_t)n + 1) * sizeof *c->rowptr);
  c->diag = malloc(((size_t)n + 1) * sizeof *c->diag);
  if (!c->rowptr || !c->diag || fbs_reserve(c, cap) != 0) return -1;
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * n;
    c->rowptr[i] = (int)k;
    for (int j = 0; j < n; j++)
      if (row[j] != 0.0 || j == i) {
        if (k == cap && fbs_reserve(c, cap *= 2) != 0) return -1;
        if (j == i) c->diag[i] = (int)k;
        c->col[k] = j;
        c->m[k++] = row[j];
      }
  }
  c->rowptr[n] = (int)k;
  c->nnz = (int)k;
  c->h = malloc((k + 1) * sizeof *c->h);
  c->rowof = malloc((k + 1) * sizeof *c->rowof);
  if (!c->h || !c->rowof) return -1;
  for (int i = 0; i < n; i++)
    for (int q = c->rowptr[i]; q < c->rowptr[i + 1]; q++)
      c->rowof[q] = i;
  return 0;
}

static int fbs_phi(void *vctx, const double *z, double *phi)
{
  struct fbs_ctx *c = vctx;
  const struct cp_problem *p = c->p;
  double res = 0.0;
  for (int i = 0; i < c->n; i++) {
    double Fi = p->q[i];
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
      Fi += c->m[k] * z[c->col[k]];
    c->F[i] = Fi;
    phi[i] = fb_row_phi(p->lo[i], p->hi[i], z[i], Fi);
    double r = fabs(z[i] - cp_mid(p->lo[i], p->hi[i], z[i] - Fi));
    if (!(r <= res)) res = r; /* NaN propagates */
  }
  memcpy(c->zF, z, (size_t)c->n * sizeof *z);
  c->natural = res;
  c->F_valid = 1;
  return 0;
}

/* F and the natural residual at z, recomputed unless the last phi call was at z. */
static void fbs_refresh(struct fbs_ctx *c, const double *z)
{
  if (c->F_valid && memcmp(c->zF, z, (size_t)c->n * sizeof *z) == 0) return;
  fbs_phi(c, z, c->work);
}

static int fbs_assemble(void *vctx, const double *z, const double *phi)
{
  (void)phi;
  struct fbs_ctx *c = vctx;
  const struct cp_problem *p = c->p;
  fbs_refresh(c, z);
  for (int i = 0; i < c->n; i++)
    c->beta[i] = (unsigned char)fb_row_degenerate(p->lo[i], p->hi[i], z[i], c->F[i]);
  for (int i = 0; i < c->n; i++) {
    double y = 0.0, da, db; /* y = (M e_beta)_i, needed only on the degenerate rows */
    if (c->beta[i])
      for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
        if (c->beta[c->col[k]]) y += c->m[k];
    fb_row_slopes(p->lo[i], p->hi[i], z[i], c->F[i], c->beta[i], y, &da, &db);
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
      c->h[k] = db * c->m[k];
    c->h[c->diag[i]] += da;
  }
  return 0;
}

static void fbs_mult_transpose(void *vctx, const double *v, double *g)
{
  const struct fbs_ctx *c = vctx;
  memset(g, 0, (size_t)c->n * sizeof *g);
  for (int i = 0; i < c->n; i++)
    for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
      g[c->col[k]] += c->h[k] * v[i];
}

/* KLU's status after a failed factorization: > 0 singular, < 0 anything else. */
static int fbs_klu_failure(const klu_common *common) { return common->status == KLU_SINGULAR ? 1 : -1; }

static int fbs_solve_newton(void *vctx, double *d)
{
  struct fbs_ctx *c = vctx;
  /* The symbolic analysis (ordering) depends on the pattern only: once per problem. */
  if (!c->sym && !(c->sym = klu_analyze(c->n, c->rowptr, c->col, &c->common))) return -1;
  if (c->num) klu_free_numeric(&c->num, &c->common);
  if (!(c->num = klu_factor(c->rowptr, c->col, c->h, c->sym, &c->common))) return fbs_klu_failure(&c->common);
  /* the stored matrix is H^T: its transposed solve is H d = rhs */
  return klu_tsolve(c->sym, c->num, c->n, 1, d, &c->common) ? 0 : -1;
}

static int fbs_int_cmp(const void *x, const void *y)
{
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

/* The pattern of N = H^T H (the pattern of H is M's plus the diagonal, so N's diagonal is present), built
 * once per problem at the first Levenberg-Marquardt step: N_ab gathers h_ia h_ib over the rows i holding
 * both columns. tptr / tk: the columns of H (tk: positions in the row storage), pos: for every such pair in
 * the order fbs_solve_lm visits them, its place in N's rows (sorted). -1 on allocation failure. */
static int fbs_normal_pattern(struct fbs_ctx *c)
{
  int n = c->n, nnz = c->nnz;
  c->tptr = calloc((size_t)n + 1, sizeof *c->tptr);
  c->tk = malloc((size_t)nnz * sizeof *c->tk);
  c->nptr = malloc(((size_t)n + 1) * sizeof *c->nptr);
  c->ndiag = malloc((size_t)n * sizeof *c->ndiag);
  int *mark = malloc((size_t)n * sizeof *mark), *where = malloc((size_t)n * sizeof *where);
  int err = !c->tptr || !c->tk || !c->nptr || !c->ndiag || !mark || !where;
  size_t pairs = 0, nn = 0;
  if (!err) {
    for (int k = 0; k < nnz; k++)
      c->tptr[c->col[k] + 1]++;
    for (int j = 0; j < n; j++)
      c->tptr[j + 1] += c->tptr[j];
    for (int j = 0; j < n; j++)
      where[j] = c->tptr[j];
    for (int i = 0; i < n; i++)
      for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
        c->tk[where[c->col[k]]++] = k;
    for (int j = 0; j < n; j++)
      mark[j] = -1;
    for (int a = 0; a < n; a++) /* count: distinct columns b sharing a row with a */
      for (int t = c->tptr[a]; t < c->tptr[a + 1]; t++) {
        int i = c->rowof[c->tk[t]];
        pairs += (size_t)(c->rowptr[i + 1] - c->rowptr[i]);
        for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
          if (mark[c->col[k]] != a) {
            mark[c->col[k]] = a;
            nn++;
          }
      }
    c->ncol = malloc((nn + 1) * sizeof *c->ncol);
    c->nval = malloc((nn + 1) * sizeof *c->nval);
    c->pos = malloc((pairs + 1) * sizeof *c->pos);
    err = !c->ncol || !c->nval || !c->pos;
  }
  if (!err) {
    size_t q = 0, t2 = 0;
    for (int j = 0; j < n; j++)
      mark[j] = -1;
    for (int a = 0; a < n; a++) {
      c->nptr[a] = (int)q;
      for (int t = c->tptr[a]; t < c->tptr[a + 1]; t++) {
        int i = c->rowof[c->tk[t]];
        for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
          if (mark[c->col[k]] != a) {
            mark[c->col[k]] = a;
            c->ncol[q++] = c->col[k];
          }
      }
      qsort(c->ncol + c->nptr[a], q - (size_t)c->nptr[a], sizeof *c->ncol, fbs_int_cmp);
      for (size_t r = (size_t)c->nptr[a]; r < q; r++) {
        where[c->ncol[r]] = (int)r;
        if (c->ncol[r] == a) c->ndiag[a] = (int)r;
      }
      for (int t = c->tptr[a]; t < c->tptr[a + 1]; t++) {
        int i = c->rowof[c->tk[t]];
        for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
          c->pos[t2++] = where[c->col[k]];
      }
    }
    c->nptr[n] = (int)q;
    c->ksym = klu_analyze(n, c->nptr, c->ncol, &c->common);
    err = !c->ksym;
  }
  free(mark);
  free(where);
  return err ? -1 : 0;
}

/* (H^T H + lambda D) d = rhs: the normal equations as the dense solver forms them, on N's pattern, factored
 * by KLU (its diagonal pivots hold on this symmetric positive definite matrix, so the fill stays that of the
 * ordering). Not the augmented system [I H; H^T -lambda D]: its lower-right diagonal vanishes with lambda
 * near a solution, KLU then pivots off the diagonal, and the fill made one step cost 0.2 s on the 136-disc
 * pile (n = 1912) against 5 ms for a Newton step. */
static int fbs_solve_lm(void *vctx, double lambda, int scaled, double *d)
{
  struct fbs_ctx *c = vctx;
  int n = c->n;
  if (!c->ksym && fbs_normal_pattern(c) != 0) return -1;
  memset(c->nval, 0, (size_t)c->nptr[n] * sizeof *c->nval);
  size_t t2 = 0;
  for (int a = 0; a < n; a++)
    for (int t = c->tptr[a]; t < c->tptr[a + 1]; t++) {
      int ka = c->tk[t], i = c->rowof[ka];
      for (int k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
        c->nval[c->pos[t2++]] += c->h[ka] * c->h[k];
    }
  double dmax = 0.0; /* a zero column still gets a (tiny) damping: relative to the largest */
  for (int j = 0; j < n; j++)
    dmax = fmax(dmax, c->nval[c->ndiag[j]]);
  for (int j = 0; j < n; j++) {
    double *njj = &c->nval[c->ndiag[j]];
    *njj += scaled ? lambda * fmax(*njj, DBL_EPSILON * dmax) : lambda;
  }
  klu_numeric *num = klu_factor(c->nptr, c->ncol, c->nval, c->ksym, &c->common);
  if (!num) return fbs_klu_failure(&c->common);
  int ok = klu_solve(c->ksym, num, n, 1, d, &c->common); /* N is symmetric: its rows are its columns */
  klu_free_numeric(&num, &c->common);
  return ok ? 0 : -1;
}

static int fbs_converged(void *vctx, const double *z, const double *phi, double *residual)
{
  (void)phi;
  struct fbs_ctx *c = vctx;
  fbs_refresh(c, z);
  *residual = c->natural;
  return c->natural <= c->tol_abs;
}

static const struct newton_linalg fbs_linalg = {.assemble = fbs_assemble,
                                                .mult_transpose = fbs_mult_transpose,
                                                .solve = fbs_solve_newton,
                                                .solve_lm = fbs_solve_lm};

static const struct option_decl fbs_options[] = {
    FB_NEWTON_OPTION_ROWS(offsetof(struct fbs_data, fb)),
    {"ordering", OPT_CHOICE, offsetof(struct fbs_data, ordering), "amd", "amd|colamd",
     "KLU's fill-reducing ordering of the Newton matrix (computed once per problem)"},
    {"btf", OPT_BOOL, offsetof(struct fbs_data, btf), "1", NULL,
     "KLU's block triangular pre-ordering (decoupled groups of contacts factor separately)"},
};

static int fbs_create(struct solver *s)
{
  struct fbs_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  newton_settings_default(&d->fb.ns);
  s->data = d;
  return 0;
}

static void fbs_free(struct fbs_ctx *c)
{
  if (c->num) klu_free_numeric(&c->num, &c->common);
  if (c->sym) klu_free_symbolic(&c->sym, &c->common);
  if (c->ksym) klu_free_symbolic(&c->ksym, &c->common);
  free(c->rowptr);
  free(c->col);
  free(c->diag);
  free(c->m);
  free(c->h);
  free(c->F);
  free(c->zF);
  free(c->work);
  free(c->beta);
  free(c->rowof);
  free(c->tptr);
  free(c->tk);
  free(c->nptr);
  free(c->ncol);
  free(c->ndiag);
  free(c->pos);
  free(c->nval);
}

static int fbs_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct fbs_data *d = s->data;
  int n = p->n, err = 0;
  size_t nn = n > 0 ? (size_t)n : 1;
  struct fbs_ctx c = {.p = p, .n = n};
  klu_defaults(&c.common);
  c.common.ordering = d->ordering;
  c.common.btf = d->btf;
  c.F = malloc(nn * sizeof *c.F);
  c.zF = malloc(nn * sizeof *c.zF);
  c.work = malloc(nn * sizeof *c.work);
  c.beta = malloc(nn);
  struct cp_check chk;
  if (!c.F || !c.zF || !c.work || !c.beta || cp_check(p, z, c.F, &chk) != 0) {
    err = 1;
    goto cleanup;
  }
  if (chk.nonfinite) {
    r->status = SOLVE_NAN_OR_INF;
    snprintf(r->message, sizeof r->message, "NaN or Inf in the problem data or the initial point");
    goto cleanup;
  }
  if (fbs_pattern(&c) != 0) {
    err = 1;
    goto cleanup;
  }
  c.tol_abs = s->set.tol * chk.scale;
  struct newton_settings ns = d->fb.ns;
  ns.max_it = s->set.max_it > 0 ? s->set.max_it : d->fb.ns.max_it;
  ns.tol = c.tol_abs;
  ns.clock = s;
  struct newton_problem prob = {
      .n = n, .ctx = &c, .phi = fbs_phi, .converged = fbs_converged, .linalg = &fbs_linalg};
  err = fb_run(&d->fb, ns, &prob, z, r, NULL);
cleanup:
  fbs_free(&c);
  return err;
}

static void fbs_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

static void fbs_view(const struct solver *s, FILE *out)
{
  const struct fbs_data *d = s->data;
  fprintf(
      out,
      "  KLU sparse LU, ordering %s (-fb_newton_sparse_ordering), block triangular form %d "
      "(-fb_newton_sparse_btf); Armijo sigma %g, backtracking ratio %g, Levenberg-Marquardt %d below step "
      "%g, retry without it %d (the -fb_newton_sparse_ rows of fb_newton's options)\n",
      d->ordering ? "colamd" : "amd", d->btf, d->fb.ns.sigma, d->fb.ns.beta, d->fb.ns.levenberg_marquardt,
      d->fb.ns.lm_below, d->fb.retry_plain);
}

const struct solver_type solver_type_fb_newton_sparse = {
    .name = "fb_newton_sparse",
    .summary =
        "fb_newton with the Newton matrix assembled and factored sparse (KLU, symbolic analysis reused)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP,
    .create = fbs_create,
    .options = fbs_options,
    .n_options = (int)(sizeof fbs_options / sizeof fbs_options[0]),
    .solve = fbs_solve,
    .destroy = fbs_destroy,
    .view = fbs_view,
};
