/* pivoting.h — principal pivoting for boxed linear complementarity problems (the Dantzig-Cottle family):
 *   find lo <= z <= hi with w = M z + q and, per i, w_i >= 0 at z_i = lo_i, w_i <= 0 at z_i = hi_i, w_i = 0
 *   strictly inside; M symmetric and positive definite on the clamped blocks the method visits (SPD, or the
 *   saddle-point blocks of mixed LCPs whose free block is positive definite), or not symmetric and a
 *   P-matrix on them (every principal minor positive: the Schur complement of each entering index, the
 *   factor's new pivot, is then positive).
 * The method is Cottle & Dantzig's (Cottle-Pang-Stone, The LCP, Sec. 4.5, stated there for P-matrices and
 * for positive semidefinite ones) in the bounded form of Baraff, "Fast contact force computation for
 * nonpenetrating rigid bodies" (SIGGRAPH 1994), which ODE's dLCP and Bullet's btDantzigSolver implement
 * (symmetric only): indices are taken one at a time; the new index i is "driven" — z_i moved toward the
 * side that brings w_i to 0 — while the clamped set C keeps w_C = 0 (M_CC dz_C = -M_Ci dz_i) and the others
 * keep z at a bound; a clamped z reaching a bound leaves C, a bounded index whose w reaches 0 enters it. Each
 * pivot costs O(n |C|) (the direction of w) plus O(|C|^2) (the solve with a factor M_CC = L D U, U = L^T
 * when M is symmetric, that is extended by one row and column on entry and updated by a rank-one step on
 * leaving: Gill, Golub, Murray & Saunders 1974, method C1, and its unsymmetric form, Bennett 1965).
 * Friction index: rows with findex[i] = k >= 0 are taken last, their bounds then set to
 * -|mu_i z_k| <= z_i <= |mu_i z_k| with mu_i = hi_i (ODE's convention and its approximation: z_k may still
 * move while later rows are driven, the box does not follow). No allocation and no BLAS in a solve: the
 * workspace is sized once (pivot_work_reserve); the rows M_jC are kept contiguous beside the factor (ODE
 * permutes the matrix itself to the same end). */
#ifndef CB_PIVOTING_H
#define CB_PIVOTING_H

#include "short_dot.h"

/* The workspace for problems of up to cap unknowns (one allocation). */
struct pivot_work {
  int cap;
  double *L; /* cap x cap row-major: the unit lower factor of M_CC = L D U, in clamped order */
  double *U; /* U^T (unit lower, cap x cap row-major, so that its solves read rows): L itself when M is
              * symmetric (pivot_ldu_mode), the own block Ubuf when it is not */
  double *Ubuf;
  double *MC;   /* cap x cap row-major: row j holds M_jC in clamped order, so that products with M_:C read
                 * contiguous memory instead of gathering through idx */
  double *d;    /* the diagonal of the factor */
  double *dinv; /* 1 / d: the solves multiply (a division costs several multiplications' time) */
  double *dz;   /* the direction of the clamped z (by clamped position) */
  double *dw;   /* the direction of w (by index) */
  double *v;    /* the entering column L^-1 M_Cj; the rank-one update's vector of L */
  double *x;    /* the entering row U^-T M_jC^T; the rank-one update's vector of U (M not symmetric) */
  double *w;    /* w = M z + q (by index; 0 on the clamped set) */
  double *lo;   /* the bounds in use (a findex row's are set when it is reached) */
  double *hi;
  int *state;  /* enum pivot_state by index */
  int *pos;    /* clamped position of an index, -1 when not clamped */
  int *idx;    /* index at a clamped position */
  int *order;  /* the order indices are taken in: findex rows last */
  int *nidx;   /* the indices at a bound that have been taken (the set N), in no particular order */
  int *npos;   /* position of an index in nidx, -1 when not in N */
  void *block; /* the one allocation */
};

struct pivot_problem {
  int n;
  const double *M; /* n x n row-major */
  const double *q;
  const double *lo;  /* lo_i <= hi_i; -INFINITY / +INFINITY allowed */
  const double *hi;  /* a findex row: its friction coefficient mu_i (lo ignored) */
  const int *findex; /* NULL, or per row the index of its normal (-1: none) */
  int nonsymmetric;  /* 0: M symmetric (an LDL^T factor); 1: not (an LDU factor, M taken as a P-matrix) */
};

struct pivot_settings {
  int max_pivots;
  double pivot_tol; /* a new factor pivot |d| <= pivot_tol * |M_jj| means M_CC is singular there */
  /* checked every 64 pivots when not NULL: nonzero stops the solve (status PIVOT_TIME_LIMIT) */
  int (*out_of_time)(const void *ctx);
  const void *ctx;
};

enum pivot_status { PIVOT_SOLVED, PIVOT_UNBOUNDED, PIVOT_SINGULAR, PIVOT_MAX_PIVOTS, PIVOT_TIME_LIMIT };

/* Sizes ws for n unknowns (a no-op when n <= ws->cap). 0 on success, 1 when out of memory. */
int pivot_work_reserve(struct pivot_work *ws, int n);
void pivot_work_free(struct pivot_work *ws);

/* Solves pp into z (n entries); *pivots gets the pivots taken. Allocates nothing. */
enum pivot_status pivot_dantzig(const struct pivot_problem *pp, const struct pivot_settings *set,
                                struct pivot_work *ws, double *z, int *pivots);

/* The same from the last solve's placement in ws (last_n: its n; pivot_dantzig's or this one's, on the
 * same M): its clamped set factored at once, z_C solved for, the other indices at the bounds they were at
 * in pp's boxes, and only the indices whose placement no longer holds pivoted again — the friction-index
 * loop's later solves, whose boxes move a little (ws->state holds the placement). A start that is not
 * valid (another n, a friction index, a singular block, a clamped z outside its new box) is a cold solve. */
enum pivot_status pivot_dantzig_warm(const struct pivot_problem *pp, const struct pivot_settings *set,
                                     struct pivot_work *ws, int last_n, double *z, int *pivots);

/* The factor M_CC = L D U in ws (pivot_ldu.c), k clamped indices. pivot_ldu_mode: U = L^T (symmetric M,
 * one factor kept) or its own (not symmetric); set before a solve's first append. */
void pivot_ldu_mode(struct pivot_work *ws, int nonsymmetric);
/* ws->v <- M_Cj (k entries, clamped order): the row M_jC when M is symmetric, else the column gathered. */
void pivot_ldu_column(struct pivot_work *ws, int k, const double *M, int n, int j);
/* Append index j as position k: 0, or 1 when its pivot is below pivot_tol * |M_jj| in magnitude (M
 * symmetric) or not above it (not symmetric: a P-matrix's pivots are positive); the factor is then left as
 * it was. */
int pivot_ldu_append(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol);
/* The same when ws->v already holds L^-1 M_Cj (pivot_ldu_forward of it, as the direction computed). */
int pivot_ldu_append_solved(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol);
/* Remove clamped position p of k (n unknowns); the positions after it move down by one. */
void pivot_ldu_remove(struct pivot_work *ws, int k, int p, int n);
/* b (k entries, clamped order) <- M_CC^-1 b; the two halves: b <- L^-1 b, then b <- U^-1 D^-1 b. */
void pivot_ldu_solve(const struct pivot_work *ws, int k, double *b);
void pivot_ldu_forward(const struct pivot_work *ws, int k, double *b);
void pivot_ldu_backward(const struct pivot_work *ws, int k, double *b);

#endif
