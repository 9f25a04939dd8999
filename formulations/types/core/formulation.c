/* formulation.c — formulation lifecycle, registry look-up, options and friction directions
 * (design.md contract 4). Options: -formulation NAME (formulation_create_from_options), and the declared
 * table formulation_options: -friction_dirs k (3D polyhedral cone, default 4), -contact_threshold
 * (default -1: the world's threshold); each type's own table is read into its state. */
#include "formulation.h"

#include <math.h>
#include <petscsys.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const struct formulation_type *formulation_find(const char *name)
{
  for (int i = 0; formulation_registry[i]; i++)
    if (strcmp(formulation_registry[i]->name, name) == 0) return formulation_registry[i];
  return NULL;
}

void formulation_registry_names(FILE *out)
{
  for (int i = 0; formulation_registry[i]; i++)
    fprintf(out, "%s%s", i ? "," : "", formulation_registry[i]->name);
}

/* The common options. -contact_threshold is any finite number because a negative one has always meant
 * "the world's threshold" (the default), not an error. */
const struct option_decl formulation_options[] = {
    {"friction_dirs", OPT_INT, offsetof(struct formulation, friction_dirs), "4", "[3,16]",
     "friction directions per contact of the 3D polyhedral cone (2D always uses 2)"},
    {"contact_threshold", OPT_REAL, offsetof(struct formulation, threshold), "-1", NULL,
     "contact detection threshold; < 0: the world's [m]"},
    {"step_halvings", OPT_INT, offsetof(struct formulation, step_halvings), "0", "[0,20]",
     "a step whose solve does not converge is taken again as two steps of half the length, nested at most "
     "this deep (0: never; the step fails)"},
    {"step_cold_retry", OPT_BOOL, offsetof(struct formulation, step_cold_retry), "0", NULL,
     "a step whose solve does not converge is first taken again once from the formulation's cold start "
     "(the geometrically implicit formulations' last answers forgotten: every pair guessed as new), "
     "before -step_halvings halves it; no effect on a formulation that carries nothing"},
    {"step_fallback_solver", OPT_STRING, offsetof(struct formulation, step_fallback_solver), "none", NULL,
     "a step that -step_cold_retry and -step_halvings did not solve is taken again whole, with the same "
     "retries, by this solver (a registered name, read with the run's options; none: the step fails)"},
};
const int formulation_n_options = (int)(sizeof formulation_options / sizeof formulation_options[0]);

/* snprintf into a buffer the caller may have left out. */
static void say(char *msg, size_t len, const char *text)
{
  if (msg && len) snprintf(msg, len, "%s", text);
}

int formulation_create(const char *name, struct formulation **out, char *msg, size_t len)
{
  char local[256], *m = msg && len ? msg : local;
  size_t ml = msg && len ? len : sizeof local;
  struct formulation *f = NULL;
  int rc = 1;
  *out = NULL;
  const struct formulation_type *t = formulation_find(name);
  if (!t) {
    size_t used = (size_t)snprintf(m, ml, "unable to find requested formulation type '%s'; valid: ", name);
    for (int i = 0; formulation_registry[i] && used < ml; i++)
      used += (size_t)snprintf(m + used, ml - used, "%s%s", i ? "," : "", formulation_registry[i]->name);
    goto cleanup;
  }
  f = calloc(1, sizeof *f);
  if (!f) {
    say(m, ml, "out of memory creating a formulation");
    goto cleanup;
  }
  f->type = t;
  if (t->create && t->create(f) != 0) {
    snprintf(m, ml, "%s: cannot create its state (out of memory)", name);
    goto cleanup;
  }
  /* The tables are the one source of the defaults, so a formulation never read from options (tests,
   * scenes) behaves as one read from an empty database. */
  if (option_defaults(formulation_options, formulation_n_options, f, m, ml) ||
      (t->n_options && option_defaults(t->options, t->n_options, f->data, m, ml)))
    goto cleanup;
  *out = f;
  f = NULL;
  rc = 0;
cleanup:
  formulation_destroy(&f);
  return rc;
}

int formulation_set_from_options(struct formulation *f, PetscOptions opts, char *msg, size_t len)
{
  char local[256], *m = msg && len ? msg : local;
  size_t ml = msg && len ? len : sizeof local;
  if (option_read(formulation_options, formulation_n_options, opts, NULL, f, m, ml)) return 1;
  if (f->type->n_options && option_read(f->type->options, f->type->n_options, opts, NULL, f->data, m, ml))
    return 1;
  return f->type->set_from_options ? f->type->set_from_options(f, m, ml) : 0;
}

static int formulation_reread(void *obj, PetscOptions o, char *msg, size_t len)
{
  return formulation_set_from_options(obj, o, msg, len);
}

/* As solver_set_option: the values given so far live in an options object of the formulation's own and
 * are all read again, so the type's cross-field checks run as in a run. */
int formulation_set_option(struct formulation *f, const char *option, const char *value, char *msg,
                           size_t len)
{
  char local[256], owner[96], *m = msg && len ? msg : local;
  size_t ml = msg && len ? len : sizeof local;
  snprintf(owner, sizeof owner, "formulation %s", f->type->name);
  return option_set_kept(&f->own_options, option, value, formulation_reread, f, owner, m, ml);
}

int formulation_fail(struct formulation *f, const char *fmt, ...)
{
  va_list ap;
  int used = snprintf(f->message, sizeof f->message, "%s: ", f->type->name);
  if (used < 0 || (size_t)used >= sizeof f->message) return 1;
  va_start(ap, fmt);
  vsnprintf(f->message + used, sizeof f->message - (size_t)used, fmt, ap);
  va_end(ap);
  return 1;
}

void formulation_print_options(FILE *out, const struct formulation_type *t)
{
  option_print(out, formulation_options, formulation_n_options, NULL);
  if (t && t->n_options) option_print(out, t->options, t->n_options, NULL);
}

const struct option_decl *formulation_option_decl(const char *option)
{
  if (option[0] == '-') option++;
  for (int i = 0; i < formulation_n_options; i++)
    if (strcmp(formulation_options[i].name, option) == 0) return &formulation_options[i];
  for (int r = 0; formulation_registry[r]; r++)
    for (int i = 0; i < formulation_registry[r]->n_options; i++)
      if (strcmp(formulation_registry[r]->options[i].name, option) == 0)
        return &formulation_registry[r]->options[i];
  return NULL;
}

int formulation_option_names(const char ***names)
{
  int cap = formulation_n_options, n = 0;
  for (int i = 0; formulation_registry[i]; i++)
    cap += formulation_registry[i]->n_options;
  const char **v = malloc(((size_t)cap + 1) * sizeof *v);
  *names = v;
  if (!v) return -1;
  for (int i = 0; i < formulation_n_options; i++)
    v[n++] = formulation_options[i].name;
  for (int i = 0; formulation_registry[i]; i++)
    for (int j = 0; j < formulation_registry[i]->n_options; j++) {
      const char *name = formulation_registry[i]->options[j].name;
      int seen = 0;
      for (int k = 0; k < n && !seen; k++)
        seen = strcmp(v[k], name) == 0;
      if (!seen) v[n++] = name;
    }
  return n;
}

void formulation_destroy(struct formulation **pf)
{
  if (!pf || !*pf) return;
  /* A create that failed may have left no state; the destroy hooks all accept f->data == NULL. */
  if ((*pf)->type->destroy) (*pf)->type->destroy(*pf);
  if ((*pf)->own_options) PetscOptionsDestroy(&(*pf)->own_options);
  free(*pf);
  *pf = NULL;
}

void formulation_view(const struct formulation *f, FILE *out)
{
  fprintf(out, "formulation %s (%s)\n", f->type->name, f->type->paper);
  if (f->type->view) f->type->view(f, out);
}

int formulation_supports(const struct formulation *f, const struct world *w)
{
  unsigned dim = w->dim == 2 ? FORMULATION_2D : FORMULATION_3D;
  if (!(f->type->dims & dim)) return 0;
  if (w->nj > 0 && !(f->type->joints & dim)) return 0;
  if ((w->nm > 0 || w->nsup > 0) && !(f->type->drives & dim)) return 0;
  if (w->mu > 0.0 && f->type->frictionless) return 0;
  for (int i = 0; i < w->ns; i++)
    if (!(f->type->shapes & (unsigned)w->shapes[i].kind)) return 0;
  return 1;
}

void formulation_tangents(int dim, const double n[3], int k, double *dirs)
{
  if (dim == 2) {
    dirs[0] = -n[1], dirs[1] = n[0], dirs[2] = 0.0;
    dirs[3] = n[1], dirs[4] = -n[0], dirs[5] = 0.0;
    return;
  }
  /* t1: the world axis least aligned with n, made orthogonal to n; t2 = n x t1. A deterministic basis
   * matters: for a pyramid cone the friction bound depends on the sliding direction. */
  int a = 0;
  for (int i = 1; i < 3; i++)
    if (fabs(n[i]) < fabs(n[a])) a = i;
  double t1[3] = {0.0, 0.0, 0.0}, t2[3];
  t1[a] = 1.0;
  double dn = t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2], len = 0.0;
  for (int i = 0; i < 3; i++) {
    t1[i] -= dn * n[i];
    len += t1[i] * t1[i];
  }
  len = sqrt(len);
  for (int i = 0; i < 3; i++)
    t1[i] /= len;
  t2[0] = n[1] * t1[2] - n[2] * t1[1];
  t2[1] = n[2] * t1[0] - n[0] * t1[2];
  t2[2] = n[0] * t1[1] - n[1] * t1[0];
  for (int l = 0; l < k; l++) {
    double ang = 2.0 * M_PI * l / k, c = cos(ang), s = sin(ang);
    for (int i = 0; i < 3; i++)
      dirs[3 * l + i] = c * t1[i] + s * t2[i];
  }
}
