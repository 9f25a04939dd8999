/* sweep_method.c — the method axes of a sweep (design.md, "Three plug-in axes": the formulation, the solver
 * and their options) and each task's options object. Any declared formulation or solver option given as a
 * comma list becomes an axis of its own (SWEEP_OPTION, after the driver's axes, its column named after the
 * option). Before any task, every formulation x solver pair of the sweep is created from probe objects
 * holding each option-axis value in turn, so that a bad value or a failing cross-field check stops the run
 * and the engine learns which option axes each pair reads: a task whose methods do not read an option axis
 * runs for the axis's first value only, and is not_applicable for the others (a second value would repeat
 * the first task). A task's object is the run's options without the axes, the driver's option_defaults,
 * and the task's option-axis values; nothing is read from or written to PETSc's global database. */
#include "formulation.h"
#include "simulation.h"
#include "sweep_impl.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* The declaring row of a formulation or solver option ("-lemke_block"), NULL when none declares it. */
static const struct option_decl *method_option_decl(const char *option)
{
  const struct option_decl *o = solver_option_decl(option);
  return o ? o : formulation_option_decl(option);
}

static int axis_has_option(const struct sweep_driver *d, const char *option)
{
  for (int k = 0; k < d->n_axes; k++)
    if (strcmp(sweep_axis_option(&d->axes[k]), option) == 0) return 1;
  return 0;
}

/* The driver with an axis appended for every method option the run gives as a comma list. */
int sweep_option_axes_add(struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  int extra = 0;
  for (int i = 0; i < s->n_pairs; i++)
    extra += s->pair_value[i] && strchr(s->pair_value[i], ',') && method_option_decl(s->pair_name[i]) &&
             !axis_has_option(d, s->pair_name[i]);
  if (!extra) return 0;
  struct sweep_driver *x = malloc(sizeof *x);
  struct sweep_axis *axes = calloc((size_t)d->n_axes + (size_t)extra, sizeof *axes);
  if (!x || !axes) {
    free(x);
    free(axes);
    return 1;
  }
  *x = *d;
  memcpy(axes, d->axes, (size_t)d->n_axes * sizeof *axes);
  x->axes = axes; /* the axes are appended in place; the names point into the run's pairs */
  int n = d->n_axes;
  for (int i = 0; i < s->n_pairs; i++) {
    const char *name = s->pair_name[i];
    const struct option_decl *o = method_option_decl(name);
    if (!s->pair_value[i] || !strchr(s->pair_value[i], ',') || !o || axis_has_option(x, name)) continue;
    axes[n++] =
        (struct sweep_axis){.name = name + 1, .kind = SWEEP_OPTION, .help = o->help, .role = SWEEP_METHOD};
    x->n_axes = n;
  }
  s->with_option_axes = x;
  s->d = x;
  return 0;
}

void sweep_option_axes_free(struct sweep *s)
{
  if (!s->with_option_axes) return;
  free((void *)s->with_option_axes->axes);
  free(s->with_option_axes);
  s->with_option_axes = NULL;
}

int sweep_check_option_value(const struct sweep *s, const char *option, const char *value)
{
  char msg[512];
  const struct option_decl *o = method_option_decl(option);
  if (!o) {
    if (s->rank == 0) fprintf(stderr, "error: %s is not an option of any formulation or solver\n", option);
    return 1;
  }
  if (!option_check_value(o, option, value, msg, sizeof msg)) return 0;
  if (s->rank == 0) fprintf(stderr, "error: %s (axis %s)\n", msg, option);
  return 1;
}

/* An object holding the run's options without the axes' (each task sets its own values). */
static int base_copy(const struct sweep *s, PetscOptions *out)
{
  *out = NULL;
  if (PetscOptionsCreate(out)) return 1;
  for (int i = 0; i < s->n_pairs; i++) {
    if (axis_has_option(s->d, s->pair_name[i]) || strcmp(s->pair_name[i], "-seeds") == 0) continue;
    if (PetscOptionsSetValue(*out, s->pair_name[i], s->pair_value[i])) return 1;
  }
  return 0;
}

/* The index of the run's option pair named name, -1 when the run does not give it. */
static int run_option_index(const struct sweep *s, const char *name)
{
  for (int i = 0; i < s->n_pairs; i++)
    if (strcmp(s->pair_name[i], name) == 0) return i;
  return -1;
}

/* The driver's option_defaults ("-a v -b w") into o, each unless the run gives it (as a value or an axis),
 * and its option_fixed, each refused (nonzero, rank 0 says why) when the run gives it. With o NULL, the ones
 * a task's object gets are printed to fp instead ("-a v -b w", for experiment.txt). */
static int add_driver_options(const struct sweep *s, PetscOptions o, FILE *fp)
{
  int printed = 0;
  for (int fixed = 0; fixed < 2; fixed++) {
    const char *p = fixed ? s->d->option_fixed : s->d->option_defaults;
    char name[128], value[OPTION_STRING_MAX];
    int used = 0;
    while (p && sscanf(p, " %127s %255s%n", name, value, &used) == 2) {
      int given = run_option_index(s, name);
      p += used;
      if (given >= 0 && fixed && (!s->pair_value[given] || strcmp(s->pair_value[given], value) != 0)) {
        if (s->rank == 0 && o)
          fprintf(stderr,
                  "error: %s %s: bench_%s sets %s %s itself (its results assume it); leave the option out\n",
                  name, s->pair_value[given] ? s->pair_value[given] : "", s->d->experiment, name, value);
        return 1;
      }
      if (given >= 0) continue;
      if (!o)
        fprintf(fp, "%s%s %s", printed++ ? " " : "", name, value);
      else if (PetscOptionsSetValue(o, name, value))
        return 1;
    }
  }
  return 0;
}

void sweep_driver_options_print(const struct sweep *s, FILE *fp) { add_driver_options(s, NULL, fp); }

int sweep_base_options(struct sweep *s)
{
  return base_copy(s, &s->base) || add_driver_options(s, s->base, NULL);
}

/* A copy of the base object with option axis k at value index v[k]. */
static int task_object(const struct sweep *s, const int *v, PetscOptions *out)
{
  if (base_copy(s, out) || add_driver_options(s, *out, NULL)) return 1;
  for (int k = 0; k < s->d->n_axes; k++)
    if (s->d->axes[k].kind == SWEEP_OPTION &&
        PetscOptionsSetValue(*out, sweep_axis_option(&s->d->axes[k]), s->ax[k].v[v[k]]))
      return 1;
  return 0;
}

/* Marks used in the run's object every option that o read: the unused-option check reads the run's. */
void sweep_mark_used(const struct sweep *s, PetscOptions o)
{
  for (int i = 0; i < s->n_pairs; i++) {
    PetscBool used = PETSC_FALSE, set = PETSC_FALSE;
    const char *value = NULL;
    if (!PetscOptionsUsed(o, s->pair_name[i] + 1, &used) && used)
      PetscOptionsFindPair(s->options, NULL, s->pair_name[i], &value, &set);
  }
}

static int axis_of_kind(const struct sweep_driver *d, enum sweep_axis_kind kind)
{
  for (int k = 0; k < d->n_axes; k++)
    if (d->axes[k].kind == kind) return k;
  return -1;
}

/* Creates the pair (form, solver) from o (either may be NULL), and the step's fallback solver the
 * formulation names (simulation_fallback_create), reporting a bad option once. */
static int probe_one(const struct sweep *s, const char *form, const char *solver, PetscOptions o)
{
  struct formulation *f = NULL;
  struct solver *sv = NULL, *fallback = NULL;
  char msg[512] = "";
  int bad = form && (formulation_create(form, &f, msg, sizeof msg) ||
                     formulation_set_from_options(f, o, msg, sizeof msg));
  bad = bad || (solver && (solver_create(solver, &sv, msg, sizeof msg) ||
                           solver_set_from_options(sv, o, msg, sizeof msg)));
  bad = bad || (f && simulation_fallback_create(f, solver, o, &fallback, msg, sizeof msg));
  if (bad && s->rank == 0) fprintf(stderr, "error: %s\n", msg);
  formulation_destroy(&f);
  solver_destroy(&sv);
  solver_destroy(&fallback);
  sweep_mark_used(s, o);
  return bad;
}

/* Probes of one pair: all option axes at their first value (what the pair reads is recorded), then each
 * further value of each option axis. */
static int probe_pair(struct sweep *s, const char *form, const char *solver, unsigned char *reads)
{
  const struct sweep_driver *d = s->d;
  int *v = calloc((size_t)d->n_axes + 1, sizeof *v), bad = !v;
  PetscOptions o = NULL;
  if (!bad) bad = task_object(s, v, &o) || probe_one(s, form, solver, o);
  for (int k = 0; !bad && k < d->n_axes; k++) {
    PetscBool used = PETSC_FALSE;
    if (d->axes[k].kind != SWEEP_OPTION) continue;
    PetscOptionsUsed(o, sweep_axis_option(&d->axes[k]) + 1,
                     &used); /* PETSc takes the name without its dash */
    reads[k] = used == PETSC_TRUE;
  }
  if (o) PetscOptionsDestroy(&o);
  for (int k = 0; !bad && k < d->n_axes; k++) {
    if (d->axes[k].kind != SWEEP_OPTION || !reads[k]) continue;
    for (int i = 1; !bad && i < s->ax[k].n; i++) {
      v[k] = i;
      bad = task_object(s, v, &o) || probe_one(s, form, solver, o);
      if (o) PetscOptionsDestroy(&o);
    }
    v[k] = 0;
  }
  free(v);
  return bad;
}

/* An option axis the user gave that no formulation or solver of the sweep reads changes nothing: an error,
 * as an unused option is. */
static int check_option_axes_read(const struct sweep *s, int n_pairs)
{
  for (int k = 0; k < s->d->n_axes; k++) {
    const struct sweep_axis *a = &s->d->axes[k];
    int read = 0;
    if (a->kind != SWEEP_OPTION) continue;
    for (int p = 0; p < n_pairs; p++)
      read |= s->reads[(size_t)p * (size_t)s->d->n_axes + (size_t)k];
    if (read || run_option_index(s, sweep_axis_option(a)) < 0) continue;
    if (s->rank == 0) {
      const struct solver_type *st = solver_option_owner(sweep_axis_option(a));
      fprintf(stderr, "error: %s: no formulation or solver of this run reads it (%s%s)\n",
              sweep_axis_option(a), st ? "an option of solver " : "a formulation option", st ? st->name : "");
    }
    return 1;
  }
  return 0;
}

int sweep_probe_methods(struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  s->form_axis = axis_of_kind(d, SWEEP_FORMULATION);
  s->solver_axis = axis_of_kind(d, SWEEP_SOLVER);
  int nf = s->form_axis < 0 ? 1 : s->ax[s->form_axis].n,
      ns = s->solver_axis < 0 ? 1 : s->ax[s->solver_axis].n;
  s->reads = calloc((size_t)nf * (size_t)ns * (size_t)d->n_axes + 1, 1);
  if (!s->reads) return 1;
  for (int f = 0; f < nf; f++)
    for (int v = 0; v < ns; v++) {
      const char *form = s->form_axis < 0 ? NULL : s->ax[s->form_axis].v[f];
      const char *solver = s->solver_axis < 0 ? NULL : s->ax[s->solver_axis].v[v];
      if ((form || solver) &&
          probe_pair(s, form, solver, s->reads + ((size_t)f * (size_t)ns + (size_t)v) * (size_t)d->n_axes))
        return 1;
    }
  return check_option_axes_read(s, nf * ns);
}

/* Value indices of task id, axis by axis (the last varies fastest). */
static void task_indices(const struct sweep *s, long id, int *v)
{
  for (int k = s->d->n_axes - 1; k >= 0; k--) {
    v[k] = (int)(id % s->ax[k].n);
    id /= s->ax[k].n;
  }
}

int sweep_task_options(const struct sweep *s, long id, PetscOptions *o, const char **unread)
{
  int *v = calloc((size_t)s->d->n_axes + 1, sizeof *v);
  *unread = NULL;
  *o = NULL;
  if (!v) return 1;
  task_indices(s, id, v);
  size_t pair = (size_t)(s->form_axis < 0 ? 0 : v[s->form_axis]) *
                    (size_t)(s->solver_axis < 0 ? 1 : s->ax[s->solver_axis].n) +
                (size_t)(s->solver_axis < 0 ? 0 : v[s->solver_axis]);
  for (int k = 0; k < s->d->n_axes && !*unread; k++)
    if (s->d->axes[k].kind == SWEEP_OPTION && v[k] > 0 && s->reads &&
        !s->reads[pair * (size_t)s->d->n_axes + (size_t)k])
      *unread = sweep_axis_option(&s->d->axes[k]);
  int bad = task_object(s, v, o);
  free(v);
  return bad;
}
