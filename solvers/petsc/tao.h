/* tao.h — the PETSc/TAO solver family (private to solvers/tao*.c).
 * Every problem is handed to PETSc as the MCP  lo <= z <= hi  perp  F(z)  (cp.h):
 *   TAO ssils/ssfls/asils/asfls: semismooth Fischer-Burmeister line search (Munson, Facchinei, Ferris,
 *     Fischer, Kanzow, "The semismooth algorithm for large scale complementarity problems", 2001);
 *   SNES vinewtonrsls (reduced space active set) / vinewtonssls (semismooth), Benson-Munson 2006;
 *   TAO bqpip (interior point) / gpcg (gradient projection CG, More-Toraldo 1991): the LCP with symmetric
 *     PSD M as  min 1/2 z'Mz + q'z  on the box, whose KKT conditions are exactly the box MCP.
 * All on PETSC_COMM_SELF. Stopping: our own natural-map test (the harness's criterion) runs first in
 * PETSc's convergence test, then PETSc's default; the time limit is enforced there too. PETSc errors
 * come back as codes (solver.c pushes a returning handler) and become status numerical_failure. */
#ifndef CB_TAO_H
#define CB_TAO_H

#include "solver.h"

#include <petscsnes.h>
#include <petsctao.h>

enum tao_family { TAO_FAMILY_MCP, TAO_FAMILY_QP, TAO_FAMILY_SNES };
enum tao_mat { TAO_MAT_AUTO, TAO_MAT_DENSE, TAO_MAT_AIJ };

/* Per solver type: which PETSc method, and the -<name>_... options. */
struct tao_data {
  enum tao_family family;
  const char *petsc_type;
  char prefix[64];    /* "<name>_": PETSc options are -<name>_tao_... or -<name>_snes_... */
  int mat;            /* -<name>_mat_type auto|dense|aij (enum tao_mat; default auto) */
  int dense_min_n;    /* -<name>_dense_min_n: auto picks AIJ below this n (default 256) ... */
  double aij_density; /* -<name>_aij_density: ... and for sparser M than this fill fraction (default 0.3) */
  double sym_tol;     /* -<name>_symmetry_tol: QP methods need |M_ij - M_ji| <= tol max|M| (1e-12) */
};

/* Per solve: the problem, the PETSc objects and scratch space. */
struct tao_ctx {
  struct solver *s;
  const struct cp_problem *p;
  const struct tao_data *d;
  double scale;        /* max(1, ||q||_inf) or p->scale: the harness's scale */
  double *work;        /* n: F(z) for the natural residual check */
  double *jbuf;        /* n x n row-major Jacobian of callback problems */
  PetscInt *pattern;   /* AIJ: CSR row starts (n + 1) then columns of the nonzeros of M plus the diagonal */
  PetscScalar *rowbuf; /* AIJ: one row of values */
  int use_aij;
  int time_hit;  /* the convergence test stopped the solve for the time limit */
  int eval_fail; /* a callback could not evaluate F or J */
  Vec x, f, lo, hi;
  Mat J;
  Tao tao;
  SNES snes;
};

/* Shared helpers (tao.c). */
PetscErrorCode tao_ctx_setup(struct tao_ctx *c, const double *z);
void tao_ctx_destroy(struct tao_ctx *c);
PetscErrorCode tao_form_F(struct tao_ctx *c, Vec X, Vec F);
PetscErrorCode tao_form_J(struct tao_ctx *c, Vec X, Mat J);
/* Our convergence criterion at X: *done = 1 if the natural residual passes, 2 if out of time, else 0. */
PetscErrorCode tao_natural_test(struct tao_ctx *c, Vec X, int *done);
PetscErrorCode tao_default_ksp(KSP ksp);
/* The object and its KSP, PC and line search read opts (the solver's options object; NULL: global). */
PetscErrorCode tao_use_options(Tao tao, PetscOptions opts);
PetscErrorCode snes_use_options(SNES snes, PetscOptions opts);
int tao_common_create(struct solver *s, enum tao_family family, const char *petsc_type);
/* The family's option tables: every method, and the QP methods (which add -<name>_symmetry_tol). */
enum { TAO_N_OPTIONS = 3, TAO_QP_N_OPTIONS = 4 }; /* row counts, for the static type tables */
extern const struct option_decl tao_options[TAO_N_OPTIONS];
extern const struct option_decl tao_qp_options[TAO_QP_N_OPTIONS];
/* Creates the PETSc object once and calls its SetFromOptions, so that PETSc reads (and marks used) the
 * -<name>_tao_... / -<name>_snes_... / -<name>_ksp_... options before any solve; a bad one is reported. */
int tao_common_set_from_options(struct solver *s, char *msg, size_t len);
void tao_common_destroy(struct solver *s);
void tao_common_view(const struct solver *s, FILE *out);
/* Runs body(c) and turns what happened into z and r (status, iterations, message). */
int tao_run(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r,
            PetscErrorCode (*body)(struct tao_ctx *c, struct solve_result *r));

/* The SNES VI body (tao_snes.c). */
PetscErrorCode tao_snes_body(struct tao_ctx *c, struct solve_result *r);

#endif
