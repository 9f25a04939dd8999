/* tao.c — PETSc/TAO complementarity (ssils, ssfls, asils, asfls) and bound-constrained QP (bqpip, gpcg)
 * solvers, and the helpers the family shares with tao_snes.c; theory and citations in tao.h.
 * Invariants: PETSc sees bounds as +-PETSC_INFINITY, never IEEE inf; the Jacobian is rewritten in full
 * at every evaluation because the semismooth methods scale and shift it in place; every PETSc object
 * is destroyed on every path (tao_ctx_destroy), including after a PETSc error. */
#include "tao.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static double tao_petsc_bound(double b)
{
  if (b >= PETSC_INFINITY) return PETSC_INFINITY;
  if (b <= PETSC_NINFINITY) return PETSC_NINFINITY;
  return b;
}

/* AIJ pattern: the nonzeros of M plus the whole diagonal (the semismooth methods add to it); every
 * entry for a callback Jacobian, whose pattern may change with z. */
static int tao_build_pattern(struct tao_ctx *c)
{
  const struct cp_problem *p = c->p;
  int n = p->n, full = !cp_is_linear(p);
  size_t nnz = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (full || i == j || p->M[(size_t)i * n + j] != 0.0) nnz++;
  c->pattern = malloc(((size_t)n + 1 + nnz) * sizeof *c->pattern);
  c->rowbuf = malloc(((size_t)n > 0 ? (size_t)n : 1) * sizeof *c->rowbuf);
  if (!c->pattern || !c->rowbuf) return 1;
  PetscInt *cols = c->pattern + n + 1, k = 0;
  for (int i = 0; i < n; i++) {
    c->pattern[i] = k;
    for (int j = 0; j < n; j++)
      if (full || i == j || p->M[(size_t)i * n + j] != 0.0) cols[k++] = j;
  }
  c->pattern[n] = k;
  return 0;
}

/* auto: AIJ, whose LU shifts zero pivots (tao_default_ksp) and so survives the singular Newton matrices
 * of degenerate and frictional problems, where LAPACK's dense LU stops with an error; dense only for
 * large dense matrices, where LAPACK's blocked LU is many times faster. */
static int tao_choose_aij(const struct tao_ctx *c)
{
  const struct cp_problem *p = c->p;
  if (c->d->mat != TAO_MAT_AUTO) return c->d->mat == TAO_MAT_AIJ;
  size_t n = (size_t)p->n;
  if ((int)n < c->d->dense_min_n) return 1;
  if (!cp_is_linear(p)) return 0;
  size_t nnz = 0;
  for (size_t k = 0; k < n * n; k++)
    if (p->M[k] != 0.0) nnz++;
  return (double)nnz < c->d->aij_density * (double)(n * n);
}

PetscErrorCode tao_ctx_setup(struct tao_ctx *c, const double *z)
{
  const struct cp_problem *p = c->p;
  PetscInt n = p->n;
  PetscFunctionBeginUser;
  c->use_aij = tao_choose_aij(c);
  c->work = malloc(((size_t)n > 0 ? (size_t)n : 1) * sizeof *c->work);
  PetscCheck(c->work, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  if (!cp_is_linear(p)) {
    c->jbuf = malloc(((size_t)n * n > 0 ? (size_t)n * n : 1) * sizeof *c->jbuf);
    PetscCheck(c->jbuf, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &c->x));
  PetscCall(VecDuplicate(c->x, &c->f));
  PetscCall(VecDuplicate(c->x, &c->lo));
  PetscCall(VecDuplicate(c->x, &c->hi));
  PetscScalar *x, *lo, *hi;
  PetscCall(VecGetArrayWrite(c->x, &x));
  PetscCall(VecGetArrayWrite(c->lo, &lo));
  PetscCall(VecGetArrayWrite(c->hi, &hi));
  for (PetscInt i = 0; i < n; i++) {
    x[i] = z[i];
    lo[i] = tao_petsc_bound(p->lo[i]);
    hi[i] = tao_petsc_bound(p->hi[i]);
  }
  PetscCall(VecRestoreArrayWrite(c->hi, &hi));
  PetscCall(VecRestoreArrayWrite(c->lo, &lo));
  PetscCall(VecRestoreArrayWrite(c->x, &x));
  if (c->use_aij) {
    PetscCheck(tao_build_pattern(c) == 0, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
    PetscInt *nnz;
    PetscCall(PetscMalloc1(n > 0 ? n : 1, &nnz));
    for (PetscInt i = 0; i < n; i++)
      nnz[i] = c->pattern[i + 1] - c->pattern[i];
    PetscErrorCode ierr = MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, &c->J);
    PetscCall(PetscFree(nnz));
    PetscCall(ierr);
  } else {
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &c->J));
  }
  PetscCall(tao_form_J(c, c->x, c->J));
  PetscFunctionReturn(0);
}

void tao_ctx_destroy(struct tao_ctx *c)
{
  /* Return codes are ignored: this runs after errors too, and there is nothing better to do. */
  TaoDestroy(&c->tao);
  SNESDestroy(&c->snes);
  MatDestroy(&c->J);
  VecDestroy(&c->x);
  VecDestroy(&c->f);
  VecDestroy(&c->lo);
  VecDestroy(&c->hi);
  free(c->work);
  free(c->jbuf);
  free(c->pattern);
  free(c->rowbuf);
  c->work = c->jbuf = NULL;
  c->pattern = NULL;
  c->rowbuf = NULL;
}

PetscErrorCode tao_form_F(struct tao_ctx *c, Vec X, Vec F)
{
  const PetscScalar *x;
  PetscScalar *f;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayWrite(F, &f));
  int bad = cp_eval_F(c->p, x, f);
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscCall(VecRestoreArrayRead(X, &x));
  if (bad) c->eval_fail = 1;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_USER, "F(z) could not be evaluated (callback failed)");
  PetscFunctionReturn(0);
}

PetscErrorCode tao_form_J(struct tao_ctx *c, Vec X, Mat J)
{
  const struct cp_problem *p = c->p;
  PetscInt n = p->n;
  PetscFunctionBeginUser;
  const double *src = p->M;
  if (!cp_is_linear(p)) {
    const PetscScalar *x;
    PetscCall(VecGetArrayRead(X, &x));
    int bad = cp_eval_J(p, x, c->jbuf);
    PetscCall(VecRestoreArrayRead(X, &x));
    if (bad) c->eval_fail = 1;
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_USER, "J(z) could not be evaluated (callback failed)");
    src = c->jbuf;
  }
  if (c->use_aij) {
    const PetscInt *cols = c->pattern + n + 1;
    for (PetscInt i = 0; i < n; i++) {
      PetscInt start = c->pattern[i], cnt = c->pattern[i + 1] - start;
      for (PetscInt k = 0; k < cnt; k++)
        c->rowbuf[k] = src[(size_t)i * n + cols[start + k]];
      PetscCall(MatSetValues(J, 1, &i, cnt, cols + start, c->rowbuf, INSERT_VALUES));
    }
  } else {
    PetscScalar *a;
    PetscInt lda;
    PetscCall(MatDenseGetLDA(J, &lda));
    PetscCall(MatDenseGetArrayWrite(J, &a));
    for (PetscInt j = 0; j < n; j++) /* PETSc dense is column-major, ours row-major */
      for (PetscInt i = 0; i < n; i++)
        a[i + j * lda] = src[(size_t)i * n + j];
    PetscCall(MatDenseRestoreArrayWrite(J, &a));
  }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode tao_natural_test(struct tao_ctx *c, Vec X, int *done)
{
  const PetscScalar *x;
  struct cp_check chk;
  PetscFunctionBeginUser;
  *done = 0;
  PetscCall(VecGetArrayRead(X, &x));
  int err = cp_check(c->p, x, c->work, &chk);
  PetscCall(VecRestoreArrayRead(X, &x));
  if (err == 0 && cp_check_passes(&chk, c->s->set.tol))
    *done = 1;
  else if (solver_out_of_time(c->s)) {
    *done = 2;
    c->time_hit = 1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode tao_default_ksp(KSP ksp)
{
  PC pc;
  PetscFunctionBeginUser;
  /* A direct solve: the semismooth Newton matrices are nonsymmetric and often ill-conditioned, and a
   * Krylov method without a good preconditioner turns a Newton method into a slow inexact one. Zero
   * pivots (exactly singular Newton matrices: degenerate LCPs, friction rows) are shifted, not fatal
   * (AIJ only; LAPACK's dense LU has no shift and stops with an error). */
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetShiftType(pc, MAT_SHIFT_NONZERO));
  PetscFunctionReturn(0);
}

/* PETSc objects read the options object they are given, not only the global database: a TAO / SNES and
 * the KSP, PC and line search inside it read the task's options (opts NULL: the global database). */
PetscErrorCode tao_use_options(Tao tao, PetscOptions opts)
{
  KSP ksp;
  TaoLineSearch ls;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectSetOptions((PetscObject)tao, opts));
  PetscCall(TaoGetKSP(tao, &ksp));
  if (ksp) {
    PC pc;
    PetscCall(PetscObjectSetOptions((PetscObject)ksp, opts));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PetscObjectSetOptions((PetscObject)pc, opts));
  }
  PetscCall(TaoGetLineSearch(tao, &ls));
  if (ls) PetscCall(PetscObjectSetOptions((PetscObject)ls, opts));
  PetscFunctionReturn(0);
}

PetscErrorCode snes_use_options(SNES snes, PetscOptions opts)
{
  KSP ksp;
  PC pc;
  SNESLineSearch ls;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectSetOptions((PetscObject)snes, opts));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(PetscObjectSetOptions((PetscObject)ksp, opts));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectSetOptions((PetscObject)pc, opts));
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(PetscObjectSetOptions((PetscObject)ls, opts));
  PetscFunctionReturn(0);
}

/* ---- the TAO methods ---------------------------------------------------------------------------- */

static PetscErrorCode tao_constraints_cb(Tao tao, Vec X, Vec F, void *ctx)
{
  (void)tao;
  PetscFunctionBeginUser;
  PetscCall(tao_form_F(ctx, X, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode tao_jacobian_cb(Tao tao, Vec X, Mat J, Mat P, void *ctx)
{
  (void)tao;
  (void)P;
  PetscFunctionBeginUser;
  PetscCall(tao_form_J(ctx, X, J));
  PetscFunctionReturn(0);
}

/* QP: f = 1/2 z'Mz + q'z, g = Mz + q = F(z). */
static PetscErrorCode tao_objgrad_cb(Tao tao, Vec X, PetscReal *fval, Vec G, void *ctx)
{
  struct tao_ctx *c = ctx;
  (void)tao;
  PetscFunctionBeginUser;
  PetscCall(tao_form_F(c, X, G));
  const PetscScalar *x, *g;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(G, &g));
  double s = 0.0;
  for (int i = 0; i < c->p->n; i++)
    s += 0.5 * x[i] * (g[i] + c->p->q[i]); /* 1/2 z'(Mz + q) + 1/2 q'z */
  PetscCall(VecRestoreArrayRead(G, &g));
  PetscCall(VecRestoreArrayRead(X, &x));
  *fval = s;
  PetscFunctionReturn(0);
}

static PetscErrorCode tao_converged_cb(Tao tao, void *ctx)
{
  struct tao_ctx *c = ctx;
  Vec X;
  int done;
  PetscFunctionBeginUser;
  PetscCall(TaoGetSolution(tao, &X));
  PetscCall(tao_natural_test(c, X, &done));
  if (done == 1)
    PetscCall(TaoSetConvergedReason(tao, TAO_CONVERGED_USER));
  else if (done == 2)
    PetscCall(TaoSetConvergedReason(tao, TAO_DIVERGED_USER));
  else
    PetscCall(TaoDefaultConvergenceTest(tao, NULL));
  PetscFunctionReturn(0);
}

static enum solve_status tao_status(TaoConvergedReason reason, int time_hit)
{
  if (time_hit) return SOLVE_TIME_LIMIT;
  if (reason > 0) return SOLVE_CONVERGED; /* a claim: the harness checks it */
  switch (reason) {
  case TAO_DIVERGED_MAXITS:
  case TAO_DIVERGED_MAXFCN: return SOLVE_MAX_ITERATIONS;
  case TAO_DIVERGED_LS_FAILURE: return SOLVE_LINE_SEARCH_FAILURE;
  case TAO_DIVERGED_NAN: return SOLVE_NAN_OR_INF;
  default: return SOLVE_NUMERICAL_FAILURE;
  }
}

static PetscErrorCode tao_body(struct tao_ctx *c, struct solve_result *r)
{
  const struct tao_data *d = c->d;
  const struct solver_settings *set = &c->s->set;
  KSP ksp;
  PetscFunctionBeginUser;
  PetscCall(TaoCreate(PETSC_COMM_SELF, &c->tao));
  PetscCall(TaoSetType(c->tao, d->petsc_type));
  PetscCall(tao_use_options(c->tao, c->s->options));
  PetscCall(TaoSetOptionsPrefix(c->tao, d->prefix));
  PetscCall(TaoSetSolution(c->tao, c->x));
  PetscCall(TaoSetVariableBounds(c->tao, c->lo, c->hi));
  if (d->family == TAO_FAMILY_QP) {
    PetscCall(TaoSetObjectiveAndGradient(c->tao, NULL, tao_objgrad_cb, c));
    PetscCall(TaoSetHessian(c->tao, c->J, c->J, tao_jacobian_cb, c));
  } else {
    PetscCall(TaoSetConstraintsRoutine(c->tao, c->f, tao_constraints_cb, c));
    PetscCall(TaoSetJacobianRoutine(c->tao, c->J, c->J, tao_jacobian_cb, c));
    /* ssls stops when 1/2 ||Phi||^2 <= fmin (default 1e-8, i.e. ||Phi|| ~ 1e-4): far looser than our
     * tolerance, so only an exact zero may stop it that way; our natural-map test stops it earlier. */
    PetscCall(TaoSetFunctionLowerBound(c->tao, 0.0));
    PetscCall(TaoGetKSP(c->tao, &ksp));
    if (ksp) PetscCall(tao_default_ksp(ksp));
  }
  /* gradient tolerances far below ours, so PETSc's own test does not stop first */
  PetscCall(TaoSetTolerances(c->tao, 1e-3 * set->tol * c->scale, 0.0, 0.0));
  if (set->max_it > 0) {
    PetscCall(TaoSetMaximumIterations(c->tao, set->max_it));
    PetscCall(TaoSetMaximumFunctionEvaluations(c->tao, 100 * (PetscInt)set->max_it + 100));
  }
  PetscCall(TaoSetConvergenceTest(c->tao, tao_converged_cb, c));
  PetscCall(TaoSetFromOptions(c->tao));
  PetscCall(TaoSolve(c->tao));
  TaoConvergedReason reason;
  PetscInt its;
  PetscCall(TaoGetConvergedReason(c->tao, &reason));
  PetscCall(TaoGetIterationNumber(c->tao, &its));
  r->iterations = (int)its;
  r->status = tao_status(reason, c->time_hit);
  if (r->status != SOLVE_CONVERGED && !r->message[0])
    snprintf(r->message, sizeof r->message, "TAO %s stopped: %s", d->petsc_type, TaoConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

/* ---- shared lifecycle ----------------------------------------------------------------------------- */

static int tao_is_symmetric(const struct cp_problem *p, double rel_tol)
{
  size_t n = (size_t)p->n;
  double mx = 0.0;
  for (size_t k = 0; k < n * n; k++)
    if (fabs(p->M[k]) > mx) mx = fabs(p->M[k]);
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      if (!(fabs(p->M[i * n + j] - p->M[j * n + i]) <= rel_tol * mx)) return 0;
  return 1;
}

int tao_run(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r,
            PetscErrorCode (*body)(struct tao_ctx *c, struct solve_result *r))
{
  const struct tao_data *d = s->data;
  if (d->family == TAO_FAMILY_QP && (!cp_is_linear(p) || !tao_is_symmetric(p, d->sym_tol))) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "%s needs a symmetric M (the QP form); M is not symmetric to %g",
             s->type->name, d->sym_tol);
    return 0;
  }
  if (p->n == 0) {
    r->status = SOLVE_CONVERGED; /* nothing to solve; PETSc objects of size 0 are not worth the risk */
    return 0;
  }
  struct tao_ctx c = {.s = s, .p = p, .d = d, .scale = 1.0};
  struct cp_check chk;
  if (cp_check(p, z, s->check_work, &chk) == 0) c.scale = chk.scale;
  PetscErrorCode ierr = tao_ctx_setup(&c, z);
  if (!ierr) ierr = body(&c, r);
  if (c.x) {
    /* The last iterate, also after an error: the harness judges it like any other answer. */
    const PetscScalar *x;
    if (VecGetArrayRead(c.x, &x) == 0) {
      for (int i = 0; i < p->n; i++)
        z[i] = x[i];
      VecRestoreArrayRead(c.x, &x);
    }
  }
  if (ierr) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (!r->message[0]) snprintf(r->message, sizeof r->message, "PETSc error %d", (int)ierr);
  } else if (c.eval_fail && r->status != SOLVE_CONVERGED) {
    r->status = SOLVE_NUMERICAL_FAILURE;
  }
  tao_ctx_destroy(&c);
  return 0;
}

#define TAO_COMMON_OPTIONS                                                                                   \
  {"mat_type", OPT_CHOICE,       offsetof(struct tao_data, mat),                                             \
   "auto",     "auto|dense|aij", "matrix type handed to PETSc; auto: aij when small or sparse (below)"},     \
      {"dense_min_n", OPT_INT,   offsetof(struct tao_data, dense_min_n),                                     \
       "256",         "[0,inf)", "auto picks aij below this n ..."},                                         \
  {                                                                                                          \
    "aij_density", OPT_REAL, offsetof(struct tao_data, aij_density), "0.3", "[0,1]",                         \
        "... and for M sparser than this fill fraction"                                                      \
  }

const struct option_decl tao_options[TAO_N_OPTIONS] = {TAO_COMMON_OPTIONS};
const struct option_decl tao_qp_options[TAO_QP_N_OPTIONS] = {
    TAO_COMMON_OPTIONS,
    {"symmetry_tol", OPT_REAL, offsetof(struct tao_data, sym_tol), "1e-12", "[0,inf)",
     "the QP form needs |M_ij - M_ji| <= tol max|M|"},
};

int tao_common_create(struct solver *s, enum tao_family family, const char *petsc_type)
{
  struct tao_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->family = family;
  d->petsc_type = petsc_type;
  snprintf(d->prefix, sizeof d->prefix, "%s_", s->type->name);
  s->data = d;
  return 0;
}

/* Keeps the first PETSc error text for the caller's message instead of printing it. */
static PetscErrorCode tao_options_error(MPI_Comm comm, int line, const char *fun, const char *file,
                                        PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  (void)comm;
  (void)line;
  (void)fun;
  (void)file;
  (void)p;
  char *buf = ctx;
  if (buf && !buf[0]) snprintf(buf, 200, "%s", mess ? mess : "");
  return n;
}

static PetscErrorCode tao_read_petsc_options(const struct tao_data *d, PetscOptions opts)
{
  PetscFunctionBeginUser;
  if (d->family == TAO_FAMILY_SNES) {
    SNES snes;
    KSP ksp;
    PetscCall(SNESCreate(PETSC_COMM_SELF, &snes));
    PetscErrorCode ierr = SNESSetType(snes, d->petsc_type);
    if (!ierr) ierr = snes_use_options(snes, opts);
    if (!ierr) ierr = SNESSetOptionsPrefix(snes, d->prefix);
    if (!ierr) ierr = SNESGetKSP(snes, &ksp);
    if (!ierr) ierr = tao_default_ksp(ksp);
    if (!ierr) ierr = SNESSetFromOptions(snes);
    PetscCall(SNESDestroy(&snes));
    PetscCall(ierr);
  } else {
    Tao tao;
    PetscCall(TaoCreate(PETSC_COMM_SELF, &tao));
    PetscErrorCode ierr = TaoSetType(tao, d->petsc_type);
    if (!ierr) ierr = tao_use_options(tao, opts);
    if (!ierr) ierr = TaoSetOptionsPrefix(tao, d->prefix);
    if (!ierr) ierr = TaoSetFromOptions(tao);
    PetscCall(TaoDestroy(&tao));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

int tao_common_set_from_options(struct solver *s, char *msg, size_t len)
{
  const struct tao_data *d = s->data;
  char petsc_msg[200] = "";
  if (PetscPushErrorHandler(tao_options_error, petsc_msg) != 0) {
    snprintf(msg, len, "%s: cannot install the PETSc error handler", s->type->name);
    return 1;
  }
  PetscErrorCode ierr = tao_read_petsc_options(d, s->options);
  PetscPopErrorHandler();
  if (ierr) {
    snprintf(msg, len, "%s: PETSc rejects its -%s... options: %s", s->type->name, d->prefix,
             petsc_msg[0] ? petsc_msg : "(no message)");
    return 1;
  }
  return 0;
}

void tao_common_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

void tao_common_view(const struct solver *s, FILE *out)
{
  const struct tao_data *d = s->data;
  static const char *const mats[] = {"auto", "dense", "aij"};
  fprintf(out, "  PETSc %s %s, options prefix -%s, mat_type %s (auto: aij below n %d or density %g)",
          d->family == TAO_FAMILY_SNES ? "SNES" : "TAO", d->petsc_type, d->prefix, mats[d->mat],
          d->dense_min_n, d->aij_density);
  if (d->family == TAO_FAMILY_QP) fprintf(out, ", symmetry_tol %g", d->sym_tol);
  fprintf(out, "\n");
}

static int tao_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  return tao_run(s, p, z, r, tao_body);
}

#define TAO_TYPE(NAME, FAMILY, PETSC_TYPE, KINDS, SUMMARY)                                                   \
  static int NAME##_create(struct solver *s) { return tao_common_create(s, FAMILY, PETSC_TYPE); }            \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = (KINDS),                                                                                      \
      .options = (FAMILY) == TAO_FAMILY_QP ? tao_qp_options : tao_options,                                   \
      .n_options = (FAMILY) == TAO_FAMILY_QP ? TAO_QP_N_OPTIONS : TAO_N_OPTIONS,                             \
      .create = NAME##_create,                                                                               \
      .set_from_options = tao_common_set_from_options,                                                       \
      .solve = tao_solve,                                                                                    \
      .destroy = tao_common_destroy,                                                                         \
      .view = tao_common_view,                                                                               \
  }

#define TAO_MCP_KINDS (CP_LCP | CP_MLCP | CP_BOX_MCP | CP_NCP)
#define TAO_QP_KINDS  (CP_LCP | CP_MLCP | CP_BOX_MCP)

TAO_TYPE(tao_ssils, TAO_FAMILY_MCP, TAOSSILS, TAO_MCP_KINDS, "TAO semismooth FB, infeasible line search");
TAO_TYPE(tao_ssfls, TAO_FAMILY_MCP, TAOSSFLS, TAO_MCP_KINDS, "TAO semismooth FB, feasible line search");
TAO_TYPE(tao_asils, TAO_FAMILY_MCP, TAOASILS, TAO_MCP_KINDS, "TAO active-set semismooth, infeasible");
TAO_TYPE(tao_asfls, TAO_FAMILY_MCP, TAOASFLS, TAO_MCP_KINDS, "TAO active-set semismooth, feasible");
TAO_TYPE(tao_bqpip, TAO_FAMILY_QP, TAOBQPIP, TAO_QP_KINDS, "TAO bound QP interior point (symmetric PSD M)");
TAO_TYPE(tao_gpcg, TAO_FAMILY_QP, TAOGPCG, TAO_QP_KINDS, "TAO bound QP gradient projection CG (sym. PSD M)");
