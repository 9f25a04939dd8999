/* tao_snes.c — PETSc SNES variational-inequality Newton solvers (vinewtonrsls, vinewtonssls) for the MCP
 * form of every problem kind (Benson-Munson 2006; the family header tao.h has the details). Same
 * stopping rule, time limit and error handling as the TAO methods in tao.c. */
#include "tao.h"

static PetscErrorCode snes_function_cb(SNES snes, Vec X, Vec F, void *ctx)
{
  struct tao_ctx *c = ctx;
  PetscFunctionBeginUser;
  if (!cp_is_linear(c->p)) {
    /* A callback that cannot evaluate F here is a domain error: the line search backs off. */
    const PetscScalar *x;
    PetscScalar *f;
    PetscCall(VecGetArrayRead(X, &x));
    PetscCall(VecGetArrayWrite(F, &f));
    int bad = cp_eval_F(c->p, x, f);
    PetscCall(VecRestoreArrayWrite(F, &f));
    PetscCall(VecRestoreArrayRead(X, &x));
    if (bad) {
      c->eval_fail = 1;
      PetscCall(SNESSetFunctionDomainError(snes));
    }
    PetscFunctionReturn(0);
  }
  PetscCall(tao_form_F(c, X, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode snes_jacobian_cb(SNES snes, Vec X, Mat J, Mat P, void *ctx)
{
  (void)snes;
  (void)P;
  PetscFunctionBeginUser;
  PetscCall(tao_form_J(ctx, X, J));
  PetscFunctionReturn(0);
}

static PetscErrorCode snes_converged_cb(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm,
                                        PetscReal fnorm, SNESConvergedReason *reason, void *ctx)
{
  struct tao_ctx *c = ctx;
  Vec X;
  int done;
  PetscFunctionBeginUser;
  PetscCall(SNESGetSolution(snes, &X));
  PetscCall(tao_natural_test(c, X, &done));
  if (done == 1)
    *reason = SNES_CONVERGED_FNORM_ABS;
  else if (done == 2)
    *reason = SNES_DIVERGED_INNER; /* SNES 3.18 has no user reason; time_hit tells the two apart */
  else
    PetscCall(SNESConvergedDefault(snes, it, xnorm, snorm, fnorm, reason, NULL));
  PetscFunctionReturn(0);
}

static enum solve_status snes_status(SNESConvergedReason reason, int time_hit)
{
  if (time_hit) return SOLVE_TIME_LIMIT;
  if (reason > 0) return SOLVE_CONVERGED; /* a claim: the harness checks it */
  switch (reason) {
  case SNES_DIVERGED_MAX_IT:
  case SNES_DIVERGED_FUNCTION_COUNT: return SOLVE_MAX_ITERATIONS;
  case SNES_DIVERGED_LINE_SEARCH: return SOLVE_LINE_SEARCH_FAILURE;
  case SNES_DIVERGED_FNORM_NAN: return SOLVE_NAN_OR_INF;
  default: return SOLVE_NUMERICAL_FAILURE;
  }
}

PetscErrorCode tao_snes_body(struct tao_ctx *c, struct solve_result *r)
{
  const struct tao_data *d = c->d;
  const struct solver_settings *set = &c->s->set;
  KSP ksp;
  PetscFunctionBeginUser;
  PetscCall(SNESCreate(PETSC_COMM_SELF, &c->snes));
  PetscCall(SNESSetType(c->snes, d->petsc_type));
  PetscCall(snes_use_options(c->snes, c->s->options));
  PetscCall(SNESSetOptionsPrefix(c->snes, d->prefix));
  PetscCall(SNESSetFunction(c->snes, c->f, snes_function_cb, c));
  PetscCall(SNESSetJacobian(c->snes, c->J, c->J, snes_jacobian_cb, c));
  PetscCall(SNESVISetVariableBounds(c->snes, c->lo, c->hi));
  /* absolute tolerance far below ours and no relative/step tests: our natural-map test stops it */
  PetscCall(SNESSetTolerances(c->snes, 1e-3 * set->tol * c->scale, 1e-30, 1e-30,
                              set->max_it > 0 ? (PetscInt)set->max_it : PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(SNESSetConvergenceTest(c->snes, snes_converged_cb, c, NULL));
  PetscCall(SNESGetKSP(c->snes, &ksp));
  PetscCall(tao_default_ksp(ksp));
  PetscCall(SNESSetFromOptions(c->snes));
  PetscCall(SNESSolve(c->snes, NULL, c->x));
  SNESConvergedReason reason;
  PetscInt its;
  PetscCall(SNESGetConvergedReason(c->snes, &reason));
  PetscCall(SNESGetIterationNumber(c->snes, &its));
  r->iterations = (int)its;
  r->status = snes_status(reason, c->time_hit);
  if (r->status != SOLVE_CONVERGED && !r->message[0])
    snprintf(r->message, sizeof r->message, "SNES %s stopped: %s", d->petsc_type,
             SNESConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

static int snes_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  return tao_run(s, p, z, r, tao_snes_body);
}

static int snes_rsls_create(struct solver *s)
{
  return tao_common_create(s, TAO_FAMILY_SNES, SNESVINEWTONRSLS);
}
static int snes_ssls_create(struct solver *s)
{
  return tao_common_create(s, TAO_FAMILY_SNES, SNESVINEWTONSSLS);
}

const struct solver_type solver_type_snes_vinewtonrsls = {
    .name = "snes_vinewtonrsls",
    .summary = "SNES VI reduced-space active-set Newton",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_NCP,
    .options = tao_options,
    .n_options = TAO_N_OPTIONS,
    .create = snes_rsls_create,
    .set_from_options = tao_common_set_from_options,
    .solve = snes_solve,
    .destroy = tao_common_destroy,
    .view = tao_common_view,
};

const struct solver_type solver_type_snes_vinewtonssls = {
    .name = "snes_vinewtonssls",
    .summary = "SNES VI semismooth Newton (FB)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_NCP,
    .options = tao_options,
    .n_options = TAO_N_OPTIONS,
    .create = snes_ssls_create,
    .set_from_options = tao_common_set_from_options,
    .solve = snes_solve,
    .destroy = tao_common_destroy,
    .view = tao_common_view,
};
