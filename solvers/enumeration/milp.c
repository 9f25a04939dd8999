/* milp.c — solver `milp`: a bounded (mixed) LCP solved exactly as a mixed-integer program with GLPK
 * (the big-M formulation used for LCPs with nonconvex solution sets, e.g. Egan-Berard-Trinkle Sec. IV):
 *   0 <= z_i <= U b_i,  0 <= w_i = (M z + q)_i <= U (1 - b_i),  b_i binary   (complementary i)
 *   (M z + q)_i = 0, z_i free and unbounded                                   (free rows of a mixed LCP)
 * U is -milp_bound (default 1e3): "infeasible" means no solution with every z_i and w_i <= U.
 * -milp_objective none|min_sum|max_sum (default none) picks among several solutions by the sum of the
 * complementary z. GLPK's answer is polished by solving M_BB z_B = -q_B on the basis B it chose (enum.h)
 * when that basis is regular. glp_intopt with presolve, terminal output off, tm_lim from -cp_time_limit. */
#include "enum.h"
#include "glpk_guard.h"
#include "solver.h"

#include <glpk.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum milp_objective { MILP_NONE, MILP_MIN_SUM, MILP_MAX_SUM };
static const char *const milp_objective_names[] = {"none", "min_sum", "max_sum"};

struct milp_data {
  double bound;  /* -milp_bound U */
  int objective; /* -milp_objective: enum milp_objective */
};

static const struct option_decl milp_options[] = {
    {"bound", OPT_REAL, offsetof(struct milp_data, bound), "1e3", "(0,inf)",
     "big-M bound U on every z_i and w_i (infeasible = no solution within it)"},
    {"objective", OPT_CHOICE, offsetof(struct milp_data, objective), "none", "none|min_sum|max_sum",
     "pick among several solutions by the sum of the complementary z"},
};

static int milp_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct milp_data));
  return s->data == NULL;
}

/* Counts branch-and-bound subproblems for r->iterations. */
static void milp_callback(glp_tree *tree, void *info)
{
  if (glp_ios_reason(tree) == GLP_ISELECT) ++*(int *)info;
}

/* Everything GLPK does for one solve, run under glpk_guarded (GLPK aborts on errors it detects, e.g.
 * scale factors of data near DBL_MAX): only GLPK objects are created here; the triplet arrays, parameters
 * and outputs belong to the caller. */
struct milp_run {
  const struct cp_problem *p;
  const struct milp_data *d;
  glp_iocp *parm;
  int *ia, *ja;
  double *ar;
  double *z;    /* out: n column values when an incumbent exists */
  double *b;    /* out: m binary values */
  int ret, mip; /* glp_intopt's return and the MIP status */
  int have_z;
};

/* Builds the MIP: columns z_1..z_n then b for the m complementary unknowns; rows per complementary i:
 * w_i >= 0, w_i + U b_i <= U, z_i - U b_i <= 0; per free row i: w_i = 0. Then solves it. */
static void milp_body(void *ctx)
{
  struct milp_run *run = ctx;
  const struct cp_problem *p = run->p;
  const struct milp_data *d = run->d;
  int n = p->n, n_eq = p->n_eq, m = n - n_eq;
  int *ia = run->ia, *ja = run->ja;
  double *ar = run->ar;
  double U = d->bound;
  glp_prob *lp = glp_create_prob();
  glp_add_cols(lp, n + m);
  glp_add_rows(lp, n + 2 * m);
  int nz = 0;
  for (int j = 0; j < n; j++) {
    if (j < n_eq)
      glp_set_col_bnds(lp, j + 1, GLP_FR, 0.0, 0.0);
    else
      glp_set_col_bnds(lp, j + 1, GLP_DB, 0.0, U);
    double c = j < n_eq || d->objective == MILP_NONE ? 0.0 : 1.0;
    glp_set_obj_coef(lp, j + 1, c);
  }
  glp_set_obj_dir(lp, d->objective == MILP_MAX_SUM ? GLP_MAX : GLP_MIN);
  for (int k = 0; k < m; k++)
    glp_set_col_kind(lp, n + k + 1, GLP_BV);
  for (int i = 0; i < n; i++) {
    glp_set_row_bnds(lp, i + 1, i < n_eq ? GLP_FX : GLP_LO, -p->q[i], -p->q[i]); /* w_i = 0 or w_i >= 0 */
    for (int j = 0; j < n; j++) {
      double a = p->M[(size_t)i * n + j];
      if (a != 0.0) nz++, ia[nz] = i + 1, ja[nz] = j + 1, ar[nz] = a;
    }
  }
  for (int k = 0; k < m; k++) {
    int i = n_eq + k, row_w = n + 2 * k + 1, row_z = row_w + 1, col_b = n + k + 1;
    glp_set_row_bnds(lp, row_w, GLP_UP, 0.0, U - p->q[i]); /* w_i + U b_i <= U */
    for (int j = 0; j < n; j++) {
      double a = p->M[(size_t)i * n + j];
      if (a != 0.0) nz++, ia[nz] = row_w, ja[nz] = j + 1, ar[nz] = a;
    }
    nz++, ia[nz] = row_w, ja[nz] = col_b, ar[nz] = U;
    glp_set_row_bnds(lp, row_z, GLP_UP, 0.0, 0.0); /* z_i - U b_i <= 0 */
    nz++, ia[nz] = row_z, ja[nz] = i + 1, ar[nz] = 1.0;
    nz++, ia[nz] = row_z, ja[nz] = col_b, ar[nz] = -U;
  }
  glp_load_matrix(lp, nz, ia, ja, ar);
  run->ret = glp_intopt(lp, run->parm);
  run->mip = glp_mip_status(lp);
  if ((run->ret == 0 || run->ret == GLP_ETMLIM) && (run->mip == GLP_OPT || run->mip == GLP_FEAS)) {
    for (int j = 0; j < n; j++)
      run->z[j] = glp_mip_col_val(lp, j + 1);
    for (int k = 0; k < m; k++)
      run->b[k] = glp_mip_col_val(lp, n + k + 1);
    run->have_z = 1;
  }
  glp_delete_prob(lp);
}

/* glp_intopt's parameters: presolve, quiet, a tight integrality tolerance, the node counter, and the time
 * limit of -cp_time_limit. */
static void milp_parameters(const struct solver *s, glp_iocp *parm, int *nodes)
{
  glp_init_iocp(parm);
  parm->presolve = GLP_ON;
  parm->msg_lev = GLP_MSG_OFF;
  parm->tol_int = 1e-9; /* GLPK's 1e-5 would let z_i reach U * 1e-5 next to a positive w_i */
  parm->cb_func = milp_callback;
  parm->cb_info = nodes;
  if (s->set.time_limit > 0.0)
    parm->tm_lim = s->set.time_limit * 1e3 < 2e9 ? (int)ceil(s->set.time_limit * 1e3) : 2000000000;
}

/* The arrays of one solve: GLPK's triplets, its binaries, and the polish's. */
struct milp_work {
  int *ia, *ja, *basic;
  double *ar, *bval, *zp, *wz, *zbest;
  struct enum_basis_work w;
};

static void milp_work_destroy(struct milp_work *mw)
{
  free(mw->ia);
  free(mw->ja);
  free(mw->ar);
  free(mw->bval);
  free(mw->zp);
  free(mw->wz);
  free(mw->zbest);
  free(mw->basic);
  enum_basis_work_destroy(&mw->w);
}

/* 0, or 1 when an allocation failed (mw is then still safe to destroy). */
static int milp_work_create(struct milp_work *mw, int n, int m)
{
  size_t nn = n > 0 ? (size_t)n : 1;
  size_t cap = (size_t)n * n + (size_t)m * n + 3 * (size_t)m + 1; /* rows w, rows w + U b, rows z - U b */
  memset(mw, 0, sizeof *mw);
  mw->ia = malloc(cap * sizeof *mw->ia);
  mw->ja = malloc(cap * sizeof *mw->ja);
  mw->ar = malloc(cap * sizeof *mw->ar);
  mw->bval = malloc(((size_t)m + 1) * sizeof *mw->bval);
  mw->zp = malloc(nn * sizeof *mw->zp);
  mw->wz = malloc(nn * sizeof *mw->wz);
  mw->zbest = malloc(nn * sizeof *mw->zbest);
  mw->basic = malloc(nn * sizeof *mw->basic);
  return !mw->ia || !mw->ja || !mw->ar || !mw->bval || !mw->zp || !mw->wz || !mw->zbest || !mw->basic ||
         enum_basis_work_create(n, &mw->w) != 0;
}

/* GLPK accepts b_i within tol_int of an integer, which lets z_i reach U tol_int beside w_i > 0, and its
 * simplex tolerances are looser than ours: z is polished on the basis GLPK chose (free unknowns plus the
 * complementary ones allowed to be positive) and on the pattern z_i > w_i, keeping the best. 0, or 1 when
 * the checker fails. */
static int milp_polish(const struct cp_problem *p, double *z, struct milp_work *mw)
{
  int n = p->n, n_eq = p->n_eq, m = n - n_eq, polished = 0;
  struct cp_check cz;
  if (cp_check(p, z, mw->zp, &cz) != 0) return 1;
  double best = cz.nonfinite ? INFINITY : fmax(cz.natural, cz.equality);
  for (int rule = 0; rule < 2; rule++) {
    int k = 0;
    for (int i = 0; i < n_eq; i++)
      mw->basic[k++] = i;
    for (int i = 0; i < m; i++) {
      double Fi = mw->zp[n_eq + i]; /* cp_check left F(z) in zp */
      if (rule == 0 ? mw->bval[i] > 0.5 : z[n_eq + i] > Fi) mw->basic[k++] = n_eq + i;
    }
    if (enum_basis_solve(p, mw->basic, k, 1e-14, &mw->w, mw->wz) != 0) continue;
    struct cp_check cpol;
    if (cp_check(p, mw->wz, NULL, &cpol) == 0 && !cpol.nonfinite &&
        fmax(cpol.natural, cpol.equality) < best) {
      best = fmax(cpol.natural, cpol.equality);
      memcpy(mw->zbest, mw->wz, (size_t)n * sizeof *z);
      polished = 1;
    }
  }
  if (polished) memcpy(z, mw->zbest, (size_t)n * sizeof *z);
  return 0;
}

/* The status and message of GLPK's answer without an incumbent (run->have_z: milp_solve's). */
static void milp_no_incumbent(const struct milp_data *d, const struct milp_run *run, struct solve_result *r)
{
  int ret = run->ret, mip = run->mip;
  if (ret == GLP_ENOPFS || (ret == 0 && mip == GLP_NOFEAS)) {
    r->status = SOLVE_INFEASIBLE;
    snprintf(r->message, sizeof r->message,
             "GLPK proves no solution with every z_i, w_i <= U = %g (-milp_bound)", d->bound);
  } else if (ret == GLP_ETMLIM) {
    r->status = SOLVE_TIME_LIMIT;
    r->no_answer = 1;
    snprintf(r->message, sizeof r->message, "GLPK time limit, no incumbent");
  } else {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "glp_intopt returned %d, MIP status %d", ret, mip);
  }
}

/* 1 (with the status and message) when there is nothing for GLPK to do: p is not an LCP (not applicable),
 * empty (solved), or not finite (GLPK would abort the process on it); -1 when the checker fails. */
static int milp_screen(const struct cp_problem *p, const double *z, struct solve_result *r)
{
  if (!enum_is_lcp_form(p)) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "milp takes (mixed) LCPs with bounds [0, inf) or free only");
    return 1;
  }
  if (p->n == 0) {
    r->status = SOLVE_CONVERGED;
    return 1;
  }
  struct cp_check c;
  if (cp_check(p, z, NULL, &c) != 0) return -1;
  if (c.nonfinite) { /* GLPK aborts the process on non-finite data: never hand it any */
    r->status = SOLVE_NAN_OR_INF;
    snprintf(r->message, sizeof r->message, "NaN or Inf in M or q");
    return 1;
  }
  return 0;
}

static int milp_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct milp_data *d = s->data;
  int screen = milp_screen(p, z, r), err = 1, nodes = 0;
  if (screen) return screen < 0;
  struct milp_work mw;
  if (milp_work_create(&mw, p->n, p->n - p->n_eq) != 0) goto cleanup;
  err = 0;
  glp_iocp parm;
  milp_parameters(s, &parm, &nodes);
  struct milp_run run = {
      .p = p, .d = d, .parm = &parm, .ia = mw.ia, .ja = mw.ja, .ar = mw.ar, .z = z, .b = mw.bval};
  if (glpk_guarded(milp_body, &run, r->message, sizeof r->message) != 0) {
    r->status = SOLVE_NUMERICAL_FAILURE; /* GLPK stopped on its own error: no answer from it */
    r->no_answer = 1;
    r->iterations = nodes;
    goto cleanup;
  }
  r->iterations = nodes;
  if (!run.have_z) {
    milp_no_incumbent(d, &run, r);
  } else if (milp_polish(p, z, &mw) != 0) {
    err = 1;
  } else {
    r->status = run.ret == 0 ? SOLVE_CONVERGED : SOLVE_TIME_LIMIT;
    if (run.ret == GLP_ETMLIM) snprintf(r->message, sizeof r->message, "time limit: best incumbent returned");
  }
cleanup:
  milp_work_destroy(&mw);
  return err;
}

static void milp_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

static void milp_view(const struct solver *s, FILE *out)
{
  const struct milp_data *d = s->data;
  fprintf(out, "  bound U %g (-milp_bound), objective %s (-milp_objective none|min_sum|max_sum)\n", d->bound,
          milp_objective_names[d->objective]);
}

const struct solver_type solver_type_milp = {
    .name = "milp",
    .summary = "LCP as a big-M MILP with GLPK (-milp_bound 1e3, -milp_objective)",
    .kinds = CP_LCP | CP_MLCP,
    .create = milp_create,
    .options = milp_options,
    .n_options = (int)(sizeof milp_options / sizeof milp_options[0]),
    .solve = milp_solve,
    .destroy = milp_destroy,
    .view = milp_view,
};
