/* farkas.c — the certificate of an empty feasible set (farkas.h): found by GLPK, proved in exact arithmetic.
 *
 * A component with bounds [0, inf) is complementary (z_i >= 0, F_i >= 0), one with (-inf, inf) free
 * (F_i = 0); any other bound has no certificate here. A vector y with y_i >= 0 on complementary rows,
 * (M'y)_j <= 0 on complementary columns, (M'y)_j = 0 on free ones and q'y < 0 proves that no z is feasible:
 * y'(Mz + q) >= 0 for every feasible z, yet it equals (M'y)'z + q'y < 0. For an LCP this is the certificate
 * Lemke's secondary ray gives when M is copositive-plus.
 *
 * Why exact: a floating-point test of M'y <= 0 needs a slack, and any slack v only rules out feasible z with
 * v'z < |q'y| — a bound, not a proof. Scaled by the largest |M_ij| (as it once was), it certified
 * M = [[1e15, 1], [1, 1e-15]], q = (-1, -1), which z = (0, 1e15) solves. Here every double is taken as the
 * exact rational it is (GMP), so the test has no tolerance at all, and a solvable problem can never pass:
 *  1. GLPK minimises q'y over the box |y| <= 1 with the sign rows; its y, rounded to doubles, is tested as
 * is.
 *  2. Rounding in GLPK usually leaves an (M'y)_j that should be 0 at 1e-17: the vertex of GLPK's final basis
 *     is then solved in rational arithmetic (the nonbasic variables at their bounds) and tested.
 *  3. Should that basis be off (an ill-conditioned simplex), GLPK's exact simplex (glp_exact, rational
 *     arithmetic) continues from it, and its basis is solved and tested in turn.
 * The rational solve is cubic in the number of basic y's and its numbers grow with the data's exponent
 * range, so it is bounded (FARKAS_EXACT_MAX unknowns, a time budget); past those the claim stays unproved,
 * and the message says why. */
#include "farkas.h"

#include "glpk_guard.h"
#include "solver.h"

#include <glpk.h>
#include <gmp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FARKAS_EXACT_MAX 400   /* basic y's the rational solve takes on */
#define FARKAS_BUDGET    10.0  /* seconds of rational work per certificate */
#define FARKAS_GLPK_MS   60000 /* each GLPK call's time limit: a miss only leaves the claim unproved */
#define FARKAS_XSTR(x)   #x
#define FARKAS_STR(x)    FARKAS_XSTR(x)

enum farkas_row { FARKAS_COMP, FARKAS_FREE, FARKAS_NONE };

static enum farkas_row farkas_row_kind(const struct cp_problem *p, int i)
{
  if (p->lo[i] == 0.0 && isinf(p->hi[i]) && p->hi[i] > 0) return FARKAS_COMP;
  if (isinf(p->lo[i]) && p->lo[i] < 0 && isinf(p->hi[i]) && p->hi[i] > 0) return FARKAS_FREE;
  return FARKAS_NONE;
}

static mpq_t *farkas_q_alloc(size_t n)
{
  mpq_t *v = malloc((n ? n : 1) * sizeof *v);
  for (size_t i = 0; v && i < n; i++)
    mpq_init(v[i]);
  return v;
}

static void farkas_q_free(mpq_t *v, size_t n)
{
  for (size_t i = 0; v && i < n; i++)
    mpq_clear(v[i]);
  free(v);
}

/* The test itself, in exact arithmetic: 1 when y is a certificate for p; *qty gets q'y (rounded). */
static int farkas_exact_test(const struct cp_problem *p, mpq_t *y, double *qty)
{
  const int n = p->n;
  int ok = 1;
  mpq_t sum, term;
  mpq_inits(sum, term, NULL);
  for (int i = 0; ok && i < n; i++)
    ok = farkas_row_kind(p, i) == FARKAS_FREE || mpq_sgn(y[i]) >= 0;
  for (int j = 0; ok && j < n; j++) { /* (M'y)_j = sum_i M_ij y_i */
    mpq_set_ui(sum, 0, 1);
    for (int i = 0; i < n; i++) {
      double mij = p->M[(size_t)i * (size_t)n + (size_t)j];
      if (mij == 0.0 || mpq_sgn(y[i]) == 0) continue;
      mpq_set_d(term, mij);
      mpq_mul(term, term, y[i]);
      mpq_add(sum, sum, term);
    }
    ok = farkas_row_kind(p, j) == FARKAS_FREE ? mpq_sgn(sum) == 0 : mpq_sgn(sum) <= 0;
  }
  if (ok) {
    mpq_set_ui(sum, 0, 1);
    for (int i = 0; i < n; i++) {
      mpq_set_d(term, p->q[i]);
      mpq_mul(term, term, y[i]);
      mpq_add(sum, sum, term);
    }
    ok = mpq_sgn(sum) < 0;
    *qty = mpq_get_d(sum);
  }
  mpq_clears(sum, term, NULL);
  return ok;
}

/* The value of a nonbasic y_i at its bound (GLPK's status), as GLPK's bounds were set in farkas_lp. */
static double farkas_nonbasic_value(const struct cp_problem *p, int stat, int i)
{
  if (stat == GLP_NU) return 1.0;
  if (stat == GLP_NL) return farkas_row_kind(p, i) == FARKAS_FREE ? -1.0 : 0.0;
  return 0.0; /* GLP_NF, GLP_NS: not used by farkas_lp's bounds, 0 by GLPK's convention */
}

/* Gaussian elimination in rationals on the k x k system A x = b (A row-major, overwritten); x into b.
 * 0 on success; 1 singular or out of budget. */
static int farkas_q_solve(mpq_t *A, mpq_t *b, int k, double deadline)
{
  mpq_t f, t;
  mpq_inits(f, t, NULL);
  int bad = 0;
  for (int c = 0; c < k && !bad; c++) {
    int piv = c;
    while (piv < k && mpq_sgn(A[(size_t)piv * k + c]) == 0)
      piv++;
    if (piv == k || solver_wall_time() > deadline) {
      bad = 1;
      break;
    }
    if (piv != c) {
      for (int j = 0; j < k; j++)
        mpq_swap(A[(size_t)piv * k + j], A[(size_t)c * k + j]);
      mpq_swap(b[piv], b[c]);
    }
    for (int r = 0; r < k; r++) {
      if (r == c || mpq_sgn(A[(size_t)r * k + c]) == 0) continue;
      mpq_div(f, A[(size_t)r * k + c], A[(size_t)c * k + c]);
      for (int j = c; j < k; j++) {
        mpq_mul(t, f, A[(size_t)c * k + j]);
        mpq_sub(A[(size_t)r * k + j], A[(size_t)r * k + j], t);
      }
      mpq_mul(t, f, b[c]);
      mpq_sub(b[r], b[r], t);
    }
  }
  for (int c = 0; c < k && !bad; c++)
    mpq_div(b[c], b[c], A[(size_t)c * k + c]);
  mpq_clears(f, t, NULL);
  return bad;
}

/* The rational system of the basis: rows[r] indexes the nonbasic sign rows, basic[c] the basic y's; y holds
 * the nonbasic y's. Row r: sum_c M_{basic_c, j} y_{basic_c} = -sum_{i nonbasic} M_ij y_i, j = rows[r]. */
static void farkas_basis_system(const struct cp_problem *p, const int *rows, const int *basic,
                                const char *isb, int k, mpq_t *y, mpq_t *A, mpq_t *b)
{
  const int n = p->n;
  mpq_t t;
  mpq_init(t);
  for (int r = 0; r < k; r++) {
    const int j = rows[r];
    for (int c = 0; c < k; c++)
      mpq_set_d(A[(size_t)r * k + c], p->M[(size_t)basic[c] * (size_t)n + (size_t)j]);
    mpq_set_ui(b[r], 0, 1);
    for (int i = 0; i < n; i++) {
      double mij = p->M[(size_t)i * (size_t)n + (size_t)j];
      if (isb[i] || mij == 0.0 || mpq_sgn(y[i]) == 0) continue;
      mpq_set_d(t, mij);
      mpq_mul(t, t, y[i]);
      mpq_sub(b[r], b[r], t);
    }
  }
  mpq_clear(t);
}

/* The vertex of GLPK's current basis, solved in rationals into y: the nonbasic y's at their bounds, the
 * nonbasic sign rows (M'y)_j at 0 (their only bound), the basic y's from those rows. 0 on success; 1 when the
 * basis does not give a square nonsingular system, is too large (*too_big) or the budget ran out. */
static int farkas_basis_vertex(const int *col_stat, const int *row_stat, const struct cp_problem *p, mpq_t *y,
                               double deadline, int *too_big)
{
  const int n = p->n;
  int *basic = malloc((size_t)n * sizeof *basic), *rows = malloc((size_t)n * sizeof *rows), k = 0, nr = 0;
  char *isb = calloc((size_t)n, 1);
  int bad = !basic || !rows || !isb;
  for (int i = 0; !bad && i < n; i++) {
    int st = col_stat[i];
    isb[i] = st == GLP_BS;
    if (isb[i])
      basic[k++] = i;
    else
      mpq_set_d(y[i], farkas_nonbasic_value(p, st, i));
  }
  for (int j = 0; !bad && j < n; j++)
    if (row_stat[j] != GLP_BS) rows[nr++] = j;
  *too_big = k > FARKAS_EXACT_MAX;
  bad = bad || nr != k || *too_big;
  const size_t kk = bad ? 0 : (size_t)k * (size_t)k;
  mpq_t *A = bad ? NULL : farkas_q_alloc(kk), *b = bad ? NULL : farkas_q_alloc((size_t)k);
  bad = bad || !A || !b;
  if (!bad) farkas_basis_system(p, rows, basic, isb, k, y, A, b);
  bad = bad || (k > 0 && farkas_q_solve(A, b, k, deadline));
  for (int c = 0; !bad && c < k; c++)
    mpq_set(y[basic[c]], b[c]);
  farkas_q_free(A, A ? kk : 0);
  farkas_q_free(b, b ? (size_t)k : 0);
  free(basic);
  free(rows);
  free(isb);
  return bad;
}

/* What the guarded GLPK calls share (glpk_guard.h: they may own nothing but GLPK objects, so the arrays are
 * allocated outside them), and what they leave: GLPK's y and its basis. */
struct farkas_run {
  const struct cp_problem *p;
  glp_prob *lp; /* NULL once deleted, or freed with GLPK's environment after an error */
  int *ia, *ja;
  double *ar;
  int nz, tm_lim;
  int optimal;              /* the last simplex ended optimal with q'y < 0 */
  double *y;                /* its y */
  int *col_stat, *row_stat; /* its basis */
};

static void farkas_record(struct farkas_run *r)
{
  const int n = r->p->n;
  r->optimal = glp_get_status(r->lp) == GLP_OPT && glp_get_obj_val(r->lp) < 0.0;
  for (int i = 0; i < n; i++) {
    r->y[i] = glp_get_col_prim(r->lp, i + 1);
    r->col_stat[i] = glp_get_col_stat(r->lp, i + 1);
    r->row_stat[i] = glp_get_row_stat(r->lp, i + 1);
  }
}

/* The LP: columns y (|y| <= 1, y >= 0 on complementary rows), rows (M'y)_j (<= 0, or = 0 when free), min q'y;
 * GLPK's double simplex on it, scaled (its own scaling: the exact steps see the data as is), without the
 * presolver, whose basis would not be the LP's. */
static void farkas_simplex_body(void *ctx)
{
  struct farkas_run *r = ctx;
  const struct cp_problem *p = r->p;
  const int n = p->n;
  r->lp = glp_create_prob();
  glp_add_cols(r->lp, n);
  glp_add_rows(r->lp, n);
  for (int i = 0; i < n; i++) {
    int free_row = farkas_row_kind(p, i) == FARKAS_FREE;
    glp_set_col_bnds(r->lp, i + 1, GLP_DB, free_row ? -1.0 : 0.0, 1.0);
    glp_set_obj_coef(r->lp, i + 1, p->q[i]);
    glp_set_row_bnds(r->lp, i + 1, free_row ? GLP_FX : GLP_UP, 0.0, 0.0);
  }
  glp_set_obj_dir(r->lp, GLP_MIN);
  glp_load_matrix(r->lp, r->nz, r->ia, r->ja, r->ar);
  glp_scale_prob(r->lp, GLP_SF_AUTO);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.tm_lim = FARKAS_GLPK_MS;
  if (glp_simplex(r->lp, &parm) == 0) farkas_record(r);
}

/* GLPK's exact simplex (rational arithmetic) from the current basis. */
static void farkas_exact_body(void *ctx)
{
  struct farkas_run *r = ctx;
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.tm_lim = r->tm_lim;
  r->optimal = 0;
  if (glp_exact(r->lp, &parm) == 0) farkas_record(r);
}

static void farkas_delete_body(void *ctx)
{
  struct farkas_run *r = ctx;
  glp_delete_prob(r->lp);
}

/* The matrix of M'y in GLPK's triplets: row j of M'y holds M_ij y_i. */
static int farkas_triplets(struct farkas_run *r)
{
  const struct cp_problem *p = r->p;
  const int n = p->n;
  size_t nz = 0, k = 0;
  for (size_t t = 0; t < (size_t)n * (size_t)n; t++)
    nz += p->M[t] != 0.0;
  r->ia = malloc((nz + 1) * sizeof *r->ia);
  r->ja = malloc((nz + 1) * sizeof *r->ja);
  r->ar = malloc((nz + 1) * sizeof *r->ar);
  if (!r->ia || !r->ja || !r->ar || nz > (size_t)INT_MAX) return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double mij = p->M[(size_t)i * (size_t)n + (size_t)j];
      if (mij == 0.0) continue;
      k++;
      r->ia[k] = j + 1;
      r->ja[k] = i + 1;
      r->ar[k] = mij;
    }
  r->nz = (int)nz;
  return 0;
}

/* Steps 2 and 3 of the header: the rational vertex of GLPK's basis, then of glp_exact's. */
static int farkas_prove_from_basis(struct farkas_run *r, mpq_t *y, double *qty, const char **why)
{
  const struct cp_problem *p = r->p;
  const double deadline = solver_wall_time() + FARKAS_BUDGET;
  char msg[256];
  int too_big = 0;
  if (!farkas_basis_vertex(r->col_stat, r->row_stat, p, y, deadline, &too_big) &&
      farkas_exact_test(p, y, qty))
    return 1;
  if (too_big || p->n > FARKAS_EXACT_MAX) {
    *why = "no certificate found in floating point, and the rational check takes at most " FARKAS_STR(
        FARKAS_EXACT_MAX) " unknowns";
    return 0;
  }
  r->tm_lim = (int)(1000.0 * fmax(0.0, deadline - solver_wall_time()));
  if (r->tm_lim <= 0 || glpk_guarded(farkas_exact_body, r, msg, sizeof msg)) {
    r->lp = NULL; /* freed with GLPK's environment, if it was an error */
    return 0;
  }
  if (r->optimal && !farkas_basis_vertex(r->col_stat, r->row_stat, p, y, deadline, &too_big) &&
      farkas_exact_test(p, y, qty))
    return 1;
  if (solver_wall_time() > deadline) *why = "the rational check ran out of its time budget";
  return 0;
}

int cp_farkas_certificate(const struct cp_problem *p, double *qty, const char **why)
{
  const int n = p->n;
  int certified = 0;
  char msg[256];
  *qty = NAN;
  *why = "the harness found no Farkas certificate";
  if (!cp_is_linear(p) || !p->M || !p->q || n <= 0) return 0;
  for (int i = 0; i < n; i++)
    if (farkas_row_kind(p, i) == FARKAS_NONE || !isfinite(p->q[i])) return 0;
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++)
    if (!isfinite(p->M[k])) return 0; /* GLPK must not see NaN; such a problem has no certificate */
  struct farkas_run r = {.p = p};
  r.y = malloc((size_t)n * sizeof *r.y);
  r.col_stat = malloc((size_t)n * sizeof *r.col_stat);
  r.row_stat = malloc((size_t)n * sizeof *r.row_stat);
  mpq_t *y = farkas_q_alloc((size_t)n);
  if (!r.y || !r.col_stat || !r.row_stat || !y || farkas_triplets(&r)) goto cleanup;
  if (glpk_guarded(farkas_simplex_body, &r, msg, sizeof msg)) {
    r.lp = NULL;
    *why = "GLPK failed on the certificate's LP (badly scaled data)";
    goto cleanup;
  }
  if (r.optimal) {
    for (int i = 0; i < n; i++) /* step 1: GLPK's own y, the sign of a complementary y_i its own */
      mpq_set_d(y[i], farkas_row_kind(p, i) == FARKAS_COMP ? fmax(r.y[i], 0.0) : r.y[i]);
    certified = farkas_exact_test(p, y, qty);
  }
  /* the basis GLPK ended with, optimal or not, is where the exact steps start */
  certified = certified || farkas_prove_from_basis(&r, y, qty, why);
cleanup:
  if (r.lp) glpk_guarded(farkas_delete_body, &r, msg, sizeof msg);
  free(r.ia);
  free(r.ja);
  free(r.ar);
  free(r.y);
  free(r.col_stat);
  free(r.row_stat);
  farkas_q_free(y, y ? (size_t)n : 0);
  return certified;
}
