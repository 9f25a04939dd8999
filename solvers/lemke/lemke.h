/* lemke.h — private to lemke.c / lemke_tableau.c: the compact, blocked tableau of Lemke's method on
 * w - M z - d z0 = q (Cottle-Pang-Stone Sec. 4.4). x_B = B^-1 q - T x_N, T = B^-1 N: only the n + 1 nonbasic
 * columns are kept (those of the starting basis's variables are the columns of B^-1 B_0 for the lexicographic
 * rule). Pivot (r, m), piv = T(r,m), c = T(:,m) with c_r := 0, v = T(r,:) / piv with v_m := 0:
 *   T' = S (T - c v^T) G + (2 / piv) e_r e_m^T,  S: row r times 1 / piv, G: column m times -1 / piv
 * (no cancellation in row r or column m). Held back as T = diag(s) (T0 - U V^T) diag(g) + C (C sparse) and
 * applied every bmax pivots by one dgemm. Variables: 0..n-1 are w, n..2n-1 are z, 2n is z0. */
#ifndef CB_LEMKE_H
#define CB_LEMKE_H

#include <stddef.h>

struct lemke_tableau {
  int n, ncols;         /* rows; ncols = n + 1 nonbasic columns (the active size, <= the capacity) */
  int bmax, k;          /* held-back capacity and count */
  int cap_n, cap_b;     /* sizes the buffers were allocated for (lemke_tableau_use picks n, bmax below) */
  int plain;            /* products by plain loops, not BLAS calls (a small problem: lemke_kernels.h) */
  double *T0;           /* n x ncols, column-major (leading dimension n): T at the last flush */
  double *U, *V;        /* n x bmax and ncols x bmax, column-major */
  double *s, *g;        /* n row and ncols column scale factors */
  int *corr_i, *corr_m; /* the k corrections: C(corr_i[l], corr_m[l]) += corr_val[l] */
  double *corr_val;
  double *wraw;  /* bmax doubles of scratch for the scale fix-ups and the flush */
  double *x;     /* n basic values B^-1 q after the pivots so far */
  int *basic;    /* basic[r]: the variable basic in row r */
  int *nonbasic; /* nonbasic[m]: the variable in column m */
  int *where;    /* where[v] = r if v is basic in row r, -1 - m if it is nonbasic in column m */
  int *lex_var;  /* lex_var[k]: the variable basic in row k of the starting basis (column k of B^-1 B_0) */
  /* Factorization scratch, always allocated: G (n^2) holds the LU of a fresh basis (refactorization, the
   * final solve) or of the warm start's M_SS (later M_Sbar,S); wwork 4 n doubles; wS, wpos, wipiv, wiwork n.
   * Warm-start scratch, allocated only when asked for (about 2 n^2 doubles): X and Y the right-hand sides
   * and products; NULL otherwise. */
  double *wG, *wX, *wY, *wwork;
  int *wS, *wpos, *wipiv, *wiwork;
  int refactors; /* refactorizations since the last cold or warm start */
  /* Lazy columns (lemke_lazy.c): columns [0, na) take part in the flushes; [na, ncols) are dormant, brought
   * up to date only when needed by replaying the flushed blocks they missed, kept in a history of hist_cap
   * slots (U of each block, its pivots' rows r, pivots and row scales s_r before the pivot, and the flush's
   * row scalings). t->U is the slot of the block in progress. */
  int na, lazy;                  /* lazy: dormancy in use this run (possible when hist_cap > 1) */
  int hist_cap, hist_lo, hist_n; /* blocks hist_lo .. hist_n - 1 kept (slot h mod hist_cap); hist_n current */
  double *hist_U, *piv_val, *piv_s, *fl_sr, *lazy_v;
  int *hist_k, *piv_r, *fl_nr, *fl_rows, *start; /* start[m]: first block dormant column m missed */
  double saved, spent;                           /* flops the flushes skipped and the replays cost */
  int retired, woken;                            /* columns made dormant, and woken by re-entries */
};

/* Buffers for problems up to n_cap rows and bmax_cap held-back pivots (with the warm-start scratch when
 * warm, the lazy columns' history when lazy: up to the tableau's own memory again); nothing is allocated
 * after this. lemke_tableau_use sets the active n <= n_cap, bmax <= bmax_cap. */
int lemke_tableau_create(int n_cap, int bmax_cap, int warm, int lazy, struct lemke_tableau **t);
int lemke_tableau_use(struct lemke_tableau *t, int n, int bmax);
void lemke_tableau_destroy(struct lemke_tableau **t);

/* Cold start: basis w, T = [-M | -d], x = q. M row-major n x n. Returns max |M_ij| (NaN-blind). */
double lemke_tableau_cold(struct lemke_tableau *t, const double *M, const double *q, const double *d);
/* Warm start: basis z_i for in_basis[i] != 0, w_i otherwise (row i holds z_i or w_i, column i its
 * complement), by a principal pivot on M_SS (LAPACKE dgetrf). The z0 column is set to -e, i.e. the
 * covering vector d = B_0 e. Returns 0, or 1 if M_SS is singular or ill-conditioned (use a cold start), or
 * 2 if the tableau was created without the warm-start scratch. */
int lemke_tableau_warm(struct lemke_tableau *t, const double *M, const double *q, const int *in_basis);

/* The current T(:, m) into col (n), m active; T(i, :) into row (ncols), entries of the active columns
 * [0, na) only (lemke_tableau_lazy_off first where the others are read). */
void lemke_tableau_column(const struct lemke_tableau *t, int m, double *col);
void lemke_tableau_row(const struct lemke_tableau *t, int i, double *row);

/* Pivot on row r and column m, given col = T(:, m) and row = T(r, :) of the current tableau. Updates x and
 * the variable bookkeeping; flushes the held-back updates when full. */
void lemke_tableau_pivot(struct lemke_tableau *t, int r, int m, const double *col, const double *row);
/* Apply the held-back updates to the active columns of T0 (one dgemm). */
void lemke_tableau_flush(struct lemke_tableau *t);

/* Lazy columns (lemke_lazy.c). A column of a nonbasic w whose z is basic is a column of B^-1 (of B^-1 B_0
 * after a warm start): needed again only if that w re-enters or a lexicographic tie reads it. */
/* Slots and scratch for the history (t->U becomes slot 0; one slot, no dormancy possible, unless lazy); 0,
 * or 1 if out of memory. */
int lemke_lazy_create(struct lemke_tableau *t, int lazy);
void lemke_lazy_destroy(struct lemke_tableau *t);
/* Every column active, the history empty (a cold or warm start, a refactorization). */
void lemke_lazy_reset(struct lemke_tableau *t);
/* Column m made current (the blocks it missed replayed) and active; returns its (new) position. */
int lemke_tableau_wake(struct lemke_tableau *t, int m);
/* Every column made current and active, and no more dormancy this run (a lexicographic tie reads them). */
void lemke_tableau_lazy_off(struct lemke_tableau *t);
/* The history slot of the block in progress (its pivots' and flush's records). */
int lemke_lazy_slot(const struct lemke_tableau *t);
/* After a flush of the active columns: record the block, retire columns that became dormant. */
void lemke_lazy_after_flush(struct lemke_tableau *t, int k);

/* The problem in the tableau's own terms, w - M z - d z0 = q, for the checks against the original data. */
struct lemke_data_ref {
  const double *M, *q, *d; /* M row-major n x n */
  double bmax;             /* max(1, max |M_ij|, max |d_i|): bounds every entry of a basis */
};
/* Backward error of the updated column col = T(:, m) and of x against the original data: the largest of
 * ||B col - a_m||_inf / (||a_m||_inf + |B| |col|) and ||B x - q||_inf / (||q||_inf + |B| |x|) (B the basis's
 * original columns, |B| |v| bounded by bmax ||v||_1). One gemv with M on the basic z's. */
double lemke_tableau_drift(struct lemke_tableau *t, const struct lemke_data_ref *ref, int m,
                           const double *col);
/* Rebuild T0 = B^-1 N and x = B^-1 q from a fresh LU of the basis's original columns (LAPACKE dgetrf), with
 * one step of iterative refinement on x. 0 on success, 1 if the basis is singular. */
int lemke_tableau_refactor(struct lemke_tableau *t, const struct lemke_data_ref *ref);

/* Bases visited by one run (lemke_cycle.c): a set of 64-bit hashes of the basic sets (Zobrist: the XOR of
 * one fixed random key per basic variable, updated in O(1) per pivot). Exact lexicographic Lemke never
 * visits a basis twice; a repeat is a cycle that rounding in the tie decisions started. */
struct lemke_visits {
  unsigned long long *slot; /* open addressing, 0 = empty; capacity a power of two */
  size_t cap, count;
  unsigned long long hash; /* of the current basis */
};
void lemke_visits_free(struct lemke_visits *v);
/* Forget every basis but the current one (of t), and hash it. 0, or 1 if out of memory. */
int lemke_visits_reset(struct lemke_visits *v, const struct lemke_tableau *t);
/* After a pivot (leaving out, entering in): 1 if the new basis was visited before, 0 if not, -1 if out of
 * memory. */
int lemke_visits_pivot(struct lemke_visits *v, int leaving, int entering);

/* The workspace, sized by lemke_setup before the harness starts the clock (GSL's rule: nothing in the
 * timed solve allocates what could be allocated up front) and kept while problems do not grow. */
struct lemke_work {
  struct lemke_tableau *t;
  double *d, *col, *row, *lex_best, *lex_cand;
  int *tied, *in_basis;
  int cap_n;                  /* the vectors' length */
  struct lemke_visits visits; /* the bases of the current run, for cycle detection */
  double *qpert;              /* n: the perturbed q of a restart after a cycle (lemke_perturb_q) */
  int cycled;                 /* the last run stopped on a repeated basis */
  int perturbs;               /* restarts on a perturbed q in this solve */
  int cycle_pivot;            /* pivot count at the first repeated basis, -1 if none */
  struct lemke_data_ref ref;  /* the current problem in the tableau's terms (for drift checks) */
};

/* The final answer (lemke_final.c). lemke_extract: z from the basis (z_i = its row's x if basic, else 0;
 * rounding negatives clipped). lemke_final_solve: the answer recomputed from the data (mode: enum
 * lemke_final, -lemke_final_solve) and kept when its natural residual is smaller, noted in r->message. */
enum lemke_final { LEMKE_FINAL_AUTO, LEMKE_FINAL_ALWAYS, LEMKE_FINAL_NEVER };
struct solve_result;
void lemke_extract(const struct lemke_tableau *t, double *z);
void lemke_final_solve(int mode, struct lemke_work *w, const double *M, const double *q, int n,
                       double tol_abs, double *z, struct solve_result *r);

/* The leaving row for the entering column c (lemke_ratio.c): the minimum ratio over entries c_i > ptol,
 * ties within zx decided by the lexicographic rule; -1 for a ray. */
int lemke_ratio_test(struct lemke_work *w, const double *c, double ptol, double zx);

/* q~ = q + xi into w->qpert, xi_i uniform in [size, 2 size) (GSL's MT19937, seeded by w->perturbs + 1), the
 * data of the restart after a cycle (lemke_cycle.c). 0, or 1 if out of memory. */
int lemke_perturb_q(struct lemke_work *w, const double *q, int n, double size);

#endif
