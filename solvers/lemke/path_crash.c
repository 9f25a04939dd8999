/* path_crash.c — a pivotal method started from a crash basis, PATH's idea for a linear problem (Dirkse &
 * Ferris 1995, Optim. Methods Softw. 5, Sec. 2-3: a crash phase guesses the active set by projected Newton
 * steps, then complementary pivoting along the path of the (here exact) linearisation from a basis made
 * feasible by the choice of the covering vector). For an LCP or mixed LCP (Cottle-Pang-Stone Sec. 4.4):
 *  1. crash: up to -path_crash_crash_it steps of prox_newton (the active-set semismooth Newton with its
 *     watchdog, prox_newton.c) from z = 0 (or the warm-start z); its best point z_c;
 *  2. basis: B_0 = {z_i basic : z_c,i > w_c,i} on the complementary unknowns (w_c = M z_c + q of the reduced
 *     LCP of a mixed problem, mlcp_reduce: the free unknowns are eliminated as Lemke does), repaired when
 *     M_SS is singular (redundant contacts): see pc_repair;
 *  3. pivoting: Lemke (lemke.c, lexicographic, drift checks, final solve) warm-started from B_0 with the
 *     covering vector d = B_0 e (-path_crash_cover e: B_0^-1 d = e, every basic value raised alike), or
 *     d = B_0 (x~ - B_0^-1 q) with x~ the crash point's basic values (-path_crash_cover point, lemke_crash.h:
 *     z0 = 1 is the crash point, the path q + z0 d runs from it to a solution). Measured with a 2-step crash
 *     on bench_solvers' resting24 / resting120 / sliding120 (3 seeds each): e 9/9 in 380 pivots, no secondary
 *     ray; point 9/9 in 472, one ray from B_0 (then a cold restart); hence e. If the crash basis is right,
 *     B_0^-1 q >= 0 and no pivot is made.
 * A secondary ray from B_0 does not end the path search: as PATH restarts from the point its path reached,
 * the basic z's of the ray's almost-complementary basis become the next crash point (steps 2-3 again), up to
 * -path_crash_restarts times; after that Lemke restarts cold (its warm-start rule). Measured on the 210-disc
 * LCP0 of Anitescu-Hart Table 1 at mu = 0.1 (n = 2990): the crash basis rays after 6 pivots; without the
 * restart the cold Lemke is at max_iterations after 100000 pivots, with it the second path converges (3659
 * pivots in all, residual 5e-13). All pivots count against -cp_max_it. Iterations are the pivots; the
 * crash's Newton steps, the repair and the restarts are in the message. -cp_time_limit covers all phases. */
#include "lemke_crash.h"
#include "mlcp_reduce.h"
#include "solver.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum pc_cover { PC_COVER_POINT, PC_COVER_E };
enum pc_repair_order { PC_REPAIR_PIVOT, PC_REPAIR_CRASH };
static const char *const pc_repair_order_names[] = {"pivot", "crash"};
static const char *const pc_cover_names[] = {"point", "e"};

struct pc_data {
  int crash_it;      /* -path_crash_crash_it: Newton steps of the crash phase */
  double crash_tol;  /* -path_crash_crash_tol: the crash stops at this relative residual (0: -cp_tol) */
  int cover;         /* -path_crash_cover: enum pc_cover */
  double repair_tol; /* -path_crash_repair_tol: Schur-complement pivots below this times the first leave */
  int repair_order;  /* -path_crash_repair_order: enum pc_repair_order */
  int restarts;      /* -path_crash_restarts: warm restarts after secondary rays before a cold Lemke */
  struct solver *newton, *lemke;
  double *zc, *w; /* crash point and M z + q, n each */
  double *G;      /* the basis repair's copy of M_SS, n^2 */
  int *S;         /* the crash basis's indices, n */
  int *prev;      /* the previous round's basis (0/1 per complementary unknown), n */
  int cap;
  int dropped; /* indices the last basis repair took out of the crash basis */
  int rounds;  /* restarts after a secondary ray in the last solve */
};

static const struct option_decl pc_options[] = {
    {"crash_it", OPT_INT, offsetof(struct pc_data, crash_it), "30", "[0,100000]",
     "prox_newton steps of the crash phase before pivoting (0: pivot from the start point's support)"},
    {"crash_tol", OPT_REAL, offsetof(struct pc_data, crash_tol), "0", "[0,inf)",
     "the crash stops once its residual is below this times the scale; 0 = -cp_tol"},
    {"cover", OPT_CHOICE, offsetof(struct pc_data, cover), "e", "point|e",
     "covering vector: the crash point at z0 = 1 (d = B_0 (x~ - B_0^-1 q)), or d = B_0 e"},
    {"repair_tol", OPT_REAL, offsetof(struct pc_data, repair_tol), "1e-9", "[0,1)",
     "basis repair: crash-basis indices whose Schur-complement pivot of M_SS falls below this times the "
     "first leave the basis"},
    {"restarts", OPT_INT, offsetof(struct pc_data, restarts), "10", "[0,100000]",
     "after a secondary ray from the crash basis, restart from the ray's basis this many times (then Lemke "
     "restarts cold)"},
    {"repair_order", OPT_CHOICE, offsetof(struct pc_data, repair_order), "pivot", "pivot|crash",
     "basis repair keeps first the largest Schur-complement pivot, or the largest crash values"},
};

static int pc_create(struct solver *s)
{
  struct pc_data *pd = calloc(1, sizeof *pd);
  s->data = pd;
  if (!pd) return 1;
  char msg[256];
  if (solver_create("prox_newton", &pd->newton, msg, sizeof msg) != 0 ||
      solver_create("lemke", &pd->lemke, msg, sizeof msg) != 0)
    return 1;
  return 0;
}

/* The phases honour their own solvers' options (-prox_newton_..., -lemke_...); the limits are set per
 * solve from this solver's -cp_ settings. */
static int pc_set_from_options(struct solver *s, char *msg, size_t len)
{
  struct pc_data *pd = s->data;
  if (solver_set_from_options(pd->newton, s->options, msg, len) != 0) return 1;
  return solver_set_from_options(pd->lemke, s->options, msg, len);
}

static void pc_free_work(struct pc_data *pd)
{
  free(pd->zc);
  free(pd->w);
  free(pd->G);
  free(pd->S);
  free(pd->prev);
  pd->zc = pd->w = pd->G = NULL;
  pd->S = pd->prev = NULL;
  pd->cap = 0;
}

static int pc_setup(struct solver *s, const struct cp_problem *p)
{
  struct pc_data *pd = s->data;
  pd->lemke->set.warm_start = 1; /* sizes Lemke's warm-start scratch */
  if (solver_setup(pd->newton, p) != 0 || solver_setup(pd->lemke, p) != 0) return 1;
  if (p->n <= pd->cap) return 0;
  pc_free_work(pd);
  pd->zc = malloc((size_t)p->n * sizeof *pd->zc);
  pd->w = malloc((size_t)p->n * sizeof *pd->w);
  pd->G = malloc((size_t)p->n * (size_t)p->n * sizeof *pd->G);
  pd->S = malloc((size_t)p->n * sizeof *pd->S);
  pd->prev = malloc((size_t)p->n * sizeof *pd->prev);
  if (!pd->zc || !pd->w || !pd->G || !pd->S || !pd->prev) {
    pc_free_work(pd);
    return 1;
  }
  pd->cap = p->n;
  return 0;
}

/* A sub-solver runs under this solve's clock and limits. */
static void pc_limits(const struct solver *s, struct solver *sub, double tol, int max_it)
{
  sub->set.tol = tol;
  sub->set.max_it = max_it;
  sub->set.time_limit = s->set.time_limit;
  sub->t_start = s->t_start;
}

/* ||min(z, w)||_inf with w on the free rows: the checker's residual of a (mixed) LCP; w = M z + q. */
static double pc_residual(const struct cp_problem *p, const double *z, double *w)
{
  int n = p->n;
  double res = 0.0;
  memcpy(w, p->q, (size_t)n * sizeof *w);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, p->M, n, z, 1, 1.0, w, 1);
  for (int i = 0; i < n; i++) {
    double v = fabs(i < p->n_eq ? w[i] : fmin(z[i], w[i]));
    if (!(v <= res)) res = v;
  }
  return res;
}

/* Symmetric swap of rows and columns a, b of the k x k row-major G and of S[a], S[b]. */
static void pc_swap(double *G, size_t kk, int *S, int a, int b)
{
  if (a == b) return;
  for (size_t c = 0; c < kk; c++) {
    double tmp = G[(size_t)a * kk + c];
    G[(size_t)a * kk + c] = G[(size_t)b * kk + c];
    G[(size_t)b * kk + c] = tmp;
  }
  for (size_t r = 0; r < kk; r++) {
    double tmp = G[r * kk + (size_t)a];
    G[r * kk + (size_t)a] = G[r * kk + (size_t)b];
    G[r * kk + (size_t)b] = tmp;
  }
  int t = S[a];
  S[a] = S[b];
  S[b] = t;
}

/* Basis repair (PATH's crash replaces dependent basis columns by slacks, Dirkse & Ferris 1995 Sec. 3): the
 * crash support S of redundant contacts (a resting pile's) makes M_SS singular, and Lemke would start cold.
 * Gaussian elimination on M_SS with diagonal (principal) pivots: -path_crash_repair_order pivot takes next
 * the undecided index with the largest Schur-complement diagonal and, once that is below
 * -path_crash_repair_tol times max |diag M_SS|, drops all the rest; order crash takes the indices by
 * decreasing crash value and drops each whose Schur-complement diagonal is below that bound (the contacts
 * carrying the most stay basic). Dropped: v_i = 0, w_i basic. The kept principal block has pivots bounded
 * away from zero. Returns the number of indices dropped. O(|S|^3 / 3). */
static int pc_repair(struct pc_data *pd, const struct cp_problem *lcp, double *v)
{
  int m = lcp->n, k = 0;
  int *S = pd->S;
  for (int i = 0; i < m; i++)
    if (v[i] > 0.0) S[k++] = i;
  if (k == 0) return 0;
  if (pd->repair_order == PC_REPAIR_CRASH) /* largest crash values first (insertion sort, k <= n) */
    for (int a = 1; a < k; a++)
      for (int b = a; b > 0 && v[S[b]] > v[S[b - 1]]; b--) {
        int t = S[b];
        S[b] = S[b - 1];
        S[b - 1] = t;
      }
  double *G = pd->G, dmax = 0.0; /* row-major k x k */
  size_t kk = (size_t)k;
  for (size_t a = 0; a < kk; a++)
    for (size_t b = 0; b < kk; b++)
      G[a * kk + b] = lcp->M[(size_t)S[a] * (size_t)m + (size_t)S[b]];
  for (size_t a = 0; a < kk; a++)
    dmax = fmax(dmax, fabs(G[a * kk + a]));
  double small = pd->repair_tol * dmax;
  int j = 0, kact = k; /* positions j .. kact - 1 are undecided; kact .. k - 1 dropped */
  while (j < kact) {
    int best = j;
    if (pd->repair_order == PC_REPAIR_PIVOT) {
      for (int i = j + 1; i < kact; i++)
        if (fabs(G[(size_t)i * kk + (size_t)i]) > fabs(G[(size_t)best * kk + (size_t)best])) best = i;
      if (!(fabs(G[(size_t)best * kk + (size_t)best]) > small)) break; /* every remaining one is smaller */
    } else if (!(fabs(G[(size_t)j * kk + (size_t)j]) > small)) {
      pc_swap(G, kk, S, j, --kact); /* dependent on the ones kept: drop it */
      continue;
    }
    pc_swap(G, kk, S, j, best);
    const double *gj = G + (size_t)j * kk;
    double piv = gj[j];
    for (int i = j + 1; i < k; i++) {
      double *gi = G + (size_t)i * kk, l = gi[j] / piv;
      if (l != 0.0)
        for (int c = j + 1; c < k; c++)
          gi[c] -= l * gj[c];
    }
    j++;
  }
  for (int i = j; i < k; i++)
    v[S[i]] = 0.0;
  return k - j;
}

/* Pivoting on the LCP (M, q) of size m from the crash point v (m entries; overwritten by the answer): the
 * basis is {i : v_i > w_i}, the point cover uses v there. */
static int pc_pivot(struct solver *s, const struct cp_problem *lcp, double *v, double *w,
                    struct solve_result *r)
{
  struct pc_data *pd = s->data;
  int m = lcp->n, pivots = 0, max_it = s->set.max_it > 0 ? s->set.max_it : 50 * m + 1000, err = 0;
  pd->rounds = 0;
  for (;;) {
    memcpy(w, lcp->q, (size_t)m * sizeof *w);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, m, m, 1.0, lcp->M, m, v, 1, 1.0, w, 1);
    for (int i = 0; i < m; i++)
      v[i] = v[i] > w[i] && v[i] > 0.0 ? v[i] : 0.0;
    pd->dropped = pc_repair(pd, lcp, v);
    int last = pd->rounds >= pd->restarts, same = pd->rounds > 0;
    for (int i = 0; i < m; i++) {
      same = same && pd->prev[i] == (v[i] > 0.0);
      pd->prev[i] = v[i] > 0.0;
    }
    if (same) last = 1; /* the ray's basis is the one the path started from: no progress, go cold */
    lemke_set_point_cover(pd->lemke, pd->cover == PC_COVER_POINT);
    lemke_set_ray_no_cold(pd->lemke, !last);
    pd->lemke->set.warm_start = 1;
    pc_limits(s, pd->lemke, s->set.tol, max_it - pivots);
    r->message[0] = '\0';
    err = pd->lemke->type->solve(pd->lemke, lcp, v, r);
    pivots += r->iterations;
    if (err || r->status != SOLVE_RAY_TERMINATION || last) break;
    /* a secondary ray from B_0: restart from the basic z's of the ray's basis (PATH restarts its path
     * search from the point reached), while pivots remain */
    pd->rounds++;
    if (pivots >= max_it) {
      r->status = SOLVE_MAX_ITERATIONS;
      break;
    }
  }
  r->iterations = pivots;
  return err;
}

static int pc_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct pc_data *pd = s->data;
  if (pc_setup(s, p) != 0) return 1; /* a no-op after the harness's setup */
  int n = p->n, steps = 0;
  double scale = cp_scale(p, NULL), tol_abs = s->set.tol * scale;
  /* 1. crash */
  struct solve_result cr;
  memset(&cr, 0, sizeof cr);
  memcpy(pd->zc, z, (size_t)n * sizeof *z);
  if (!s->set.warm_start) memset(pd->zc, 0, (size_t)n * sizeof *pd->zc);
  double res_crash = INFINITY;
  if (pd->crash_it > 0) {
    pd->newton->set.warm_start = s->set.warm_start;
    pc_limits(s, pd->newton, pd->crash_tol > 0.0 ? fmax(pd->crash_tol, s->set.tol) : s->set.tol,
              pd->crash_it);
    if (pd->newton->type->solve(pd->newton, p, pd->zc, &cr) != 0) return 1;
    steps = cr.iterations;
  }
  for (int i = 0; i < n; i++)
    if (!isfinite(pd->zc[i])) pd->zc[i] = 0.0; /* a failed crash: pivot from z = 0's basis */
  res_crash = pc_residual(p, pd->zc, pd->w);
  if (res_crash <= tol_abs) { /* the crash solved it */
    memcpy(z, pd->zc, (size_t)n * sizeof *z);
    r->status = SOLVE_CONVERGED;
    r->iterations = 0;
    snprintf(r->message, sizeof r->message, "crash: %d Newton steps, residual %.2e; no pivots", steps,
             res_crash);
    return 0;
  }
  if (solver_out_of_time(s)) {
    memcpy(z, pd->zc, (size_t)n * sizeof *z);
    r->status = SOLVE_TIME_LIMIT;
    snprintf(r->message, sizeof r->message, "time limit in the crash (%d Newton steps, residual %.2e)", steps,
             res_crash);
    return 0;
  }
  /* 2-3. basis and pivoting (a mixed LCP on its reduced LCP, as Lemke) */
  char lm[sizeof r->message];
  int err = 0;
  memcpy(z, pd->zc, (size_t)n * sizeof *z);
  if (p->kind == CP_LCP)
    err = pc_pivot(s, p, z, pd->w, r);
  else {
    struct cp_problem *lcp = NULL;
    struct mlcp_reduction *red = NULL;
    err = mlcp_reduce(p, &lcp, &red, r->message, sizeof r->message);
    if (err == 1) {
      r->status = SOLVE_NOT_APPLICABLE;
      return 0;
    }
    if (err) return 1;
    err = pc_pivot(s, lcp, z + p->n_eq, pd->w, r);
    if (!err) mlcp_recover(red, z + p->n_eq, z);
    cp_destroy(&lcp);
    mlcp_reduction_destroy(&red);
  }
  /* the crash's summary first; Lemke's own message after it, cut to what fits */
  memcpy(lm, r->message, sizeof lm);
  int used = snprintf(r->message, sizeof r->message,
                      "crash: %d Newton steps, residual %.2e; repair dropped %d; %d ray restarts; %d pivots",
                      steps, res_crash, pd->dropped, pd->rounds, r->iterations);
  if (lm[0] && used > 0 && (size_t)used + 3 < sizeof r->message) {
    size_t room = sizeof r->message - (size_t)used - 3;
    memcpy(r->message + used, "; ", 2);
    size_t k = strnlen(lm, room);
    memcpy(r->message + used + 2, lm, k);
    r->message[(size_t)used + 2 + k] = '\0';
  }
  return err;
}

static void pc_destroy(struct solver *s)
{
  struct pc_data *pd = s->data;
  if (pd) {
    solver_destroy(&pd->newton);
    solver_destroy(&pd->lemke);
    pc_free_work(pd);
  }
  free(s->data);
  s->data = NULL;
}

static void pc_view(const struct solver *s, FILE *out)
{
  const struct pc_data *pd = s->data;
  fprintf(out,
          "  crash: %d prox_newton steps (crash_tol %g), repair_tol %g (order %s), cover %s; then lemke\n",
          pd->crash_it, pd->crash_tol, pd->repair_tol, pc_repair_order_names[pd->repair_order],
          pc_cover_names[pd->cover]);
  if (pd->newton) solver_view(pd->newton, out);
  if (pd->lemke) solver_view(pd->lemke, out);
}

const struct solver_type solver_type_path_crash = {
    .name = "path_crash",
    .summary =
        "prox_newton crash, then Lemke from the crash basis with the crash point as cover (PATH's idea)",
    .kinds = CP_LCP | CP_MLCP,
    .options = pc_options,
    .n_options = (int)(sizeof pc_options / sizeof pc_options[0]),
    .create = pc_create,
    .set_from_options = pc_set_from_options,
    .setup = pc_setup,
    .solve = pc_solve,
    .destroy = pc_destroy,
    .view = pc_view,
};
