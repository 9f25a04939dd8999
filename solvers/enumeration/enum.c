/* enum.c — solver `enum`: every complementary basic solution of a small (mixed) LCP (Cottle-Pang-Stone,
 * The LCP, Sec. 1.3). For each of the 2^m subsets of the m complementary unknowns (free unknowns of a mixed
 * LCP are always basic) it solves M_BB z_B = -q_B with LAPACK and keeps z when the checker's natural
 * residual is within -cp_tol. Bases whose matrix is singular (reciprocal condition < -enum_rcond) are
 * skipped, so a continuum of solutions (e.g. z1 + z2 = 1) is reported by its vertices. Only if no regular
 * basis gives a solution, each singular basis's face {z_B >= 0, w_B = 0, w >= 0} is decided by a GLPK LP,
 * so "infeasible" is a proof (a solution may exist only on singular faces). Every distinct solution is
 * returned in r->solutions (owned here, valid until the next solve or destroy); z is the one of least
 * Euclidean norm. Options: -enum_max_n 20 (larger m: not_applicable), -enum_rcond 1e-12,
 * -enum_distinct 1e-9 (solutions closer than this times max(1, |z|_inf) are the same). */
#include "enum.h"

#include "glpk_guard.h"
#include "solver.h"

#include <glpk.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int enum_basis_work_create(int n, struct enum_basis_work *w)
{
  size_t nn = n > 0 ? (size_t)n : 1;
  w->n = n;
  w->A = malloc(nn * nn * sizeof *w->A);
  w->work = malloc(4 * nn * sizeof *w->work);
  w->ipiv = malloc(nn * sizeof *w->ipiv);
  w->iwork = malloc(nn * sizeof *w->iwork);
  if (!w->A || !w->work || !w->ipiv || !w->iwork) {
    enum_basis_work_destroy(w);
    return 1;
  }
  return 0;
}

void enum_basis_work_destroy(struct enum_basis_work *w)
{
  free(w->A);
  free(w->work);
  free(w->ipiv);
  free(w->iwork);
  w->A = w->work = NULL;
  w->ipiv = w->iwork = NULL;
}

int enum_basis_solve(const struct cp_problem *p, const int *basic, int k, double rcond_min,
                     struct enum_basis_work *w, double *z)
{
  int n = p->n;
  for (int i = 0; i < n; i++)
    z[i] = 0.0;
  if (k == 0) return 0;
  double anorm = 0.0;
  for (int c = 0; c < k; c++) {
    double col = 0.0;
    for (int r = 0; r < k; r++) {
      double a = p->M[(size_t)basic[r] * n + basic[c]];
      w->A[(size_t)c * k + r] = a;
      col += fabs(a);
    }
    if (col > anorm) anorm = col;
  }
  if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, k, k, w->A, k, w->ipiv) != 0) return 1;
  double rcond = 0.0;
  if (LAPACKE_dgecon_work(LAPACK_COL_MAJOR, '1', k, w->A, k, anorm, &rcond, w->work, w->iwork) != 0 ||
      !(rcond >= rcond_min))
    return 1;
  for (int r = 0; r < k; r++)
    w->work[r] = -p->q[basic[r]];
  if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', k, 1, w->A, k, w->ipiv, w->work, k) != 0) return 1;
  for (int r = 0; r < k; r++)
    z[basic[r]] = w->work[r];
  return 0;
}

int enum_is_lcp_form(const struct cp_problem *p)
{
  if (!cp_is_linear(p)) return 0;
  for (int i = 0; i < p->n; i++) {
    int free_ok = p->lo[i] == -INFINITY && p->hi[i] == INFINITY;
    int comp_ok = p->lo[i] == 0.0 && p->hi[i] == INFINITY;
    if (i < p->n_eq ? !free_ok : !comp_ok) return 0;
  }
  return 1;
}

/* The face LP of enum_face_lp, run under glpk_guarded: only GLPK objects are created here. */
struct enum_face_ctx {
  const struct cp_problem *p;
  const int *basic;
  int k, nz;
  const int *ia, *ja;
  const double *ar;
  double *z;
  int rc;
};

static void enum_face_body(void *ctx)
{
  struct enum_face_ctx *f = ctx;
  const struct cp_problem *p = f->p;
  int n = p->n, k = f->k;
  glp_prob *lp = glp_create_prob();
  glp_add_rows(lp, n);
  if (k > 0) glp_add_cols(lp, k);
  for (int i = 0; i < n; i++) {
    int in_b = 0;
    for (int c = 0; c < k; c++)
      in_b |= f->basic[c] == i;
    glp_set_row_bnds(lp, i + 1, in_b || i < p->n_eq ? GLP_FX : GLP_LO, -p->q[i], -p->q[i]);
  }
  for (int c = 0; c < k; c++)
    glp_set_col_bnds(lp, c + 1, f->basic[c] < p->n_eq ? GLP_FR : GLP_LO, 0.0, 0.0);
  glp_load_matrix(lp, f->nz, f->ia, f->ja, f->ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  int ret = glp_simplex(lp, &parm);
  if (ret == GLP_ENOPFS || (ret == 0 && glp_get_status(lp) == GLP_NOFEAS))
    f->rc = 1;
  else if (ret == 0 && (glp_get_status(lp) == GLP_OPT || glp_get_status(lp) == GLP_FEAS)) {
    for (int i = 0; i < n; i++)
      f->z[i] = 0.0;
    for (int c = 0; c < k; c++)
      f->z[f->basic[c]] = glp_get_col_prim(lp, c + 1);
    f->rc = 0;
  }
  glp_delete_prob(lp);
}

/* Feasibility of the face {z_B >= 0 (free unknowns free), z = 0 off B, w_B = 0, w >= 0} as a GLPK LP, for
 * singular bases. Returns 0 and a vertex in z if feasible, 1 if GLPK proves it empty, 2 on failure (msg
 * holds GLPK's error when GLPK stopped on one, else is left alone). */
static int enum_face_lp(const struct cp_problem *p, const int *basic, int k, double *z, char *msg, size_t len)
{
  int n = p->n;
  size_t cap = (size_t)n * (size_t)(k > 0 ? k : 1) + 1;
  int *ia = malloc(cap * sizeof *ia), *ja = malloc(cap * sizeof *ja);
  double *ar = malloc(cap * sizeof *ar);
  struct enum_face_ctx f = {.p = p, .basic = basic, .k = k, .ia = ia, .ja = ja, .ar = ar, .z = z, .rc = 2};
  if (!ia || !ja || !ar) goto cleanup;
  int nz = 0;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < k; c++) {
      double a = p->M[(size_t)i * n + basic[c]];
      if (a != 0.0) nz++, ia[nz] = i + 1, ja[nz] = c + 1, ar[nz] = a;
    }
  f.nz = nz;
  if (glpk_guarded(enum_face_body, &f, msg, len) != 0) f.rc = 2;
cleanup:
  free(ia);
  free(ja);
  free(ar);
  return f.rc;
}

struct enum_data {
  int max_n;
  double rcond_min;
  double distinct;
  double *solutions; /* n_solutions x n */
  int n_solutions;
  size_t capacity; /* doubles: n changes from one solve to the next (a stepper's problems) */
};

static const struct option_decl enum_options[] = {
    {"max_n", OPT_INT, offsetof(struct enum_data, max_n), "20", "[0,30]",
     "refuse larger problems (2^n complementary bases)"},
    {"rcond", OPT_REAL, offsetof(struct enum_data, rcond_min), "1e-12", "[0,inf)",
     "bases whose M_BB has a smaller reciprocal condition number are skipped"},
    {"distinct", OPT_REAL, offsetof(struct enum_data, distinct), "1e-9", "[0,inf)",
     "solutions closer than this times max(1, |z|_inf) count as one"},
};

static int enum_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct enum_data));
  return s->data == NULL;
}

/* Appends z unless an equal solution is already stored; returns nonzero on allocation failure. */
static int enum_add(struct enum_data *d, int n, const double *z)
{
  double zmax = 1.0;
  for (int i = 0; i < n; i++)
    if (fabs(z[i]) > zmax) zmax = fabs(z[i]);
  for (int s = 0; s < d->n_solutions; s++) {
    const double *o = d->solutions + (size_t)s * n;
    double diff = 0.0;
    for (int i = 0; i < n; i++)
      if (fabs(o[i] - z[i]) > diff) diff = fabs(o[i] - z[i]);
    if (diff <= d->distinct * zmax) return 0;
  }
  size_t need = ((size_t)d->n_solutions + 1) * (size_t)n;
  if (need > d->capacity) {
    size_t cap = d->capacity ? 2 * d->capacity : 16 * (size_t)(n > 0 ? n : 1);
    while (cap < need)
      cap *= 2;
    double *grown = realloc(d->solutions, cap * sizeof *grown);
    if (!grown) return 1;
    d->solutions = grown;
    d->capacity = cap;
  }
  memcpy(d->solutions + (size_t)d->n_solutions * n, z, (size_t)n * sizeof *z);
  d->n_solutions++;
  return 0;
}

/* What a scan of the bases works with and counts. */
struct enum_scan {
  struct enum_basis_work w;
  double *zc, *Fz; /* a basis's z, and F(z) for the checker */
  int *basic;
  struct cp_check c;
  double tol_abs;
  long tried, singular, lp_unknown;
  char glpk_msg[160];
};

/* The basis of mask into basic: every free unknown, then complementary unknown j where bit j is set. Its
 * size. */
static int enum_basis_of(unsigned long mask, int n_eq, int m, int *basic)
{
  int k = 0;
  for (int i = 0; i < n_eq; i++)
    basic[k++] = i;
  for (int j = 0; j < m; j++)
    if (mask & (1UL << j)) basic[k++] = n_eq + j;
  return k;
}

/* Every basis whose M_BB is regular: its solution kept when the checker passes it. r->status becomes
 * time_limit when the clock runs out. 0, or 1 on a checker or allocation failure. */
static int enum_regular_bases(struct solver *s, const struct cp_problem *p, struct enum_scan *e,
                              struct solve_result *r)
{
  struct enum_data *d = s->data;
  int n = p->n, n_eq = p->n_eq, m = n - n_eq;
  for (unsigned long mask = 0; mask < (1UL << m); mask++) {
    if ((mask & 255UL) == 255UL && solver_out_of_time(s)) {
      r->status = SOLVE_TIME_LIMIT;
      break;
    }
    int k = enum_basis_of(mask, n_eq, m, e->basic);
    e->tried++;
    if (enum_basis_solve(p, e->basic, k, d->rcond_min, &e->w, e->zc) != 0) {
      e->singular++;
      continue;
    }
    /* a basic z_i < -tol already fails the checker (w_i = 0 there): skip the O(n^2) check */
    int negative = 0;
    for (int b = n_eq; b < k && !negative; b++)
      negative = e->zc[e->basic[b]] < -e->tol_abs;
    if (negative) continue;
    if (cp_check(p, e->zc, e->Fz, &e->c) != 0) return 1;
    if (cp_check_passes(&e->c, s->set.tol) && enum_add(d, n, e->zc) != 0) return 1;
  }
  return 0;
}

/* Nothing from the regular bases: the singular ones decided exactly by their face LPs, so "infeasible" is
 * a proof; those GLPK cannot decide are counted in e->lp_unknown. 0, or 1 on an allocation failure. */
static int enum_singular_faces(struct solver *s, const struct cp_problem *p, struct enum_scan *e,
                               struct solve_result *r)
{
  struct enum_data *d = s->data;
  int n = p->n, n_eq = p->n_eq, m = n - n_eq, err = 0;
  for (unsigned long mask = 0;
       !err && d->n_solutions == 0 && e->singular > 0 && r->status == SOLVE_INFEASIBLE && mask < (1UL << m);
       mask++) {
    int k = enum_basis_of(mask, n_eq, m, e->basic);
    if (enum_basis_solve(p, e->basic, k, d->rcond_min, &e->w, e->zc) == 0) continue; /* regular: done */
    int lp = enum_face_lp(p, e->basic, k, e->zc, e->glpk_msg, sizeof e->glpk_msg);
    if (lp == 2) e->lp_unknown++;
    if (lp == 0 && cp_check(p, e->zc, e->Fz, &e->c) == 0 && cp_check_passes(&e->c, s->set.tol))
      err = enum_add(d, n, e->zc);
    else if (lp == 0)
      e->lp_unknown++; /* GLPK's vertex misses the tolerance: cannot call it infeasible */
    if (solver_out_of_time(s)) r->status = SOLVE_TIME_LIMIT;
  }
  return err;
}

/* The stored solution of least Euclidean norm. */
static int enum_least_norm(const struct enum_data *d, int n)
{
  int best = 0;
  double best_norm = INFINITY;
  for (int k = 0; k < d->n_solutions; k++) {
    double s2 = 0.0;
    for (int i = 0; i < n; i++)
      s2 += d->solutions[(size_t)k * n + i] * d->solutions[(size_t)k * n + i];
    if (s2 < best_norm) best_norm = s2, best = k;
  }
  return best;
}

/* The outcome of the scans: the least-norm solution into z, or why there is none. */
static void enum_report(struct enum_data *d, const struct cp_problem *p, const struct enum_scan *e, double *z,
                        struct solve_result *r)
{
  int n = p->n, m = n - p->n_eq;
  r->iterations = (int)(e->tried < 2147483647L ? e->tried : 2147483647L);
  if (d->n_solutions > 0) {
    memcpy(z, d->solutions + (size_t)enum_least_norm(d, n) * n, (size_t)n * sizeof *z);
    if (r->status != SOLVE_TIME_LIMIT) r->status = SOLVE_CONVERGED;
    r->n_solutions = d->n_solutions;
    r->solutions = d->solutions;
    snprintf(r->message, sizeof r->message, "%d distinct solution%s from %ld bases (%ld singular skipped)%s",
             d->n_solutions, d->n_solutions == 1 ? "" : "s", e->tried, e->singular,
             r->status == SOLVE_TIME_LIMIT ? ", enumeration incomplete" : "");
  } else if (r->status == SOLVE_INFEASIBLE && e->lp_unknown == 0) {
    snprintf(r->message, sizeof r->message,
             "no complementary basis solves it (%ld bases, %ld singular ones "
             "decided by LP): infeasible",
             e->tried, e->singular);
  } else if (r->status == SOLVE_TIME_LIMIT) {
    r->no_answer = 1;
    snprintf(r->message, sizeof r->message, "time limit after %ld of 2^%d bases, no solution yet", e->tried,
             m);
  } else if (r->status == SOLVE_INFEASIBLE) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    /* GLPK's message is cut to what the result's message has room for (%.90s) */
    snprintf(r->message, sizeof r->message, "no solution found, but %ld singular bases undecided%s%.90s",
             e->lp_unknown, e->glpk_msg[0] ? "; " : "", e->glpk_msg);
  }
}

/* 1 (with the status and message) when enum does not take p: not an LCP, or too many bases. */
static int enum_refuses(const struct enum_data *d, const struct cp_problem *p, struct solve_result *r)
{
  int m = p->n - p->n_eq;
  if (!enum_is_lcp_form(p)) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "enum takes (mixed) LCPs with bounds [0, inf) or free only");
    return 1;
  }
  if (m > d->max_n) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "%d complementary unknowns exceed -enum_max_n %d (2^%d bases)", m,
             d->max_n, m);
    return 1;
  }
  return 0;
}

static int enum_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct enum_data *d = s->data;
  int n = p->n, err = 1;
  d->n_solutions = 0;
  if (enum_refuses(d, p, r)) return 0;
  size_t nn = n > 0 ? (size_t)n : 1;
  struct enum_scan e = {.zc = malloc(nn * sizeof *e.zc),
                        .Fz = malloc(nn * sizeof *e.Fz),
                        .basic = malloc(nn * sizeof *e.basic)};
  if (!e.zc || !e.Fz || !e.basic || enum_basis_work_create(n, &e.w) != 0) goto cleanup;
  err = 0;
  cp_check(p, z, e.Fz, &e.c); /* only for the scale and a NaN screen */
  e.tol_abs = s->set.tol * e.c.scale;
  r->status = SOLVE_INFEASIBLE;
  if (e.c.nonfinite) {
    r->status = SOLVE_NAN_OR_INF;
    snprintf(r->message, sizeof r->message, "NaN or Inf in M or q");
    goto cleanup;
  }
  err = enum_regular_bases(s, p, &e, r);
  if (!err) err = enum_singular_faces(s, p, &e, r);
  enum_report(d, p, &e, z, r);
cleanup:
  free(e.zc);
  free(e.Fz);
  free(e.basic);
  enum_basis_work_destroy(&e.w);
  return err;
}

static void enum_destroy(struct solver *s)
{
  struct enum_data *d = s->data;
  if (d) free(d->solutions);
  free(d);
  s->data = NULL;
}

static void enum_view(const struct solver *s, FILE *out)
{
  const struct enum_data *d = s->data;
  fprintf(out,
          "  max complementary unknowns %d (-enum_max_n), singular below rcond %g (-enum_rcond), distinct "
          "beyond %g (-enum_distinct)\n",
          d->max_n, d->rcond_min, d->distinct);
}

const struct solver_type solver_type_enum = {
    .name = "enum",
    .summary = "all complementary basic solutions of a small LCP (-enum_max_n 20)",
    .kinds = CP_LCP | CP_MLCP,
    .create = enum_create,
    .options = enum_options,
    .n_options = (int)(sizeof enum_options / sizeof enum_options[0]),
    .solve = enum_solve,
    .destroy = enum_destroy,
    .view = enum_view,
};
