/* formulation.c — formulation lifecycle, registry look-up, options and friction directions
 * (design.md contract 4). Options: -formulation NAME (formulation_create_from_options), -friction_dirs k
 * (3D polyhedral cone, default 4), -contact_threshold (default: the world's threshold). */
#include "formulation.h"

#include <stddef.h>

#include <math.h>
#include <petscsys.h>
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

void formulation_registry_print(FILE *out)
{
  fprintf(out, "Formulations (-formulation NAME):\n");
  for (int i = 0; formulation_registry[i]; i++) {
    const struct formulation_type *t = formulation_registry[i];
    fprintf(out, "  %-20s %s%s%s  %s\n    [%s]\n", t->name, (t->dims & FORMULATION_2D) ? "2D" : "",
            (t->dims & FORMULATION_3D) ? "3D" : "", t->joints ? " joints" : "", t->summary, t->paper);
  }
}

int formulation_create(const char *name, struct formulation **out)
{
  *out = NULL;
  const struct formulation_type *t = formulation_find(name);
  if (!t) {
    fprintf(stderr, "error: unable to find requested formulation type '%s'; valid: ", name);
    formulation_registry_names(stderr);
    fprintf(stderr, "\n");
    return 1;
  }
  struct formulation *f = calloc(1, sizeof *f);
  if (!f) return 1;
  f->type = t;
  f->friction_dirs = 4;
  f->threshold = -1.0;
  if (t->create && t->create(f) != 0) {
    free(f);
    return 1;
  }
  *out = f;
  return 0;
}

int formulation_set_from_options(struct formulation *f)
{
  PetscBool set;
  PetscInt k;
  PetscReal r;
  if (PetscOptionsGetInt(NULL, NULL, "-friction_dirs", &k, &set) == 0 && set) f->friction_dirs = (int)k;
  if (f->friction_dirs < 3 || f->friction_dirs > 16) {
    fprintf(stderr, "error: -friction_dirs (3D; 2D always uses 2) must lie in [3, 16] (got %d)\n",
            f->friction_dirs);
    return 1;
  }
  if (PetscOptionsGetReal(NULL, NULL, "-contact_threshold", &r, &set) == 0 && set) f->threshold = r;
  return f->type->set_from_options ? f->type->set_from_options(f) : 0;
}

int formulation_create_from_options(const char *def, struct formulation **f)
{
  char name[64];
  PetscBool set;
  snprintf(name, sizeof name, "%s", def);
  if (PetscOptionsGetString(NULL, NULL, "-formulation", name, sizeof name, &set) != 0) return 1;
  if (formulation_create(name, f)) return 1;
  if (formulation_set_from_options(*f)) {
    formulation_destroy(f);
    return 1;
  }
  return 0;
}

void formulation_destroy(struct formulation **pf)
{
  if (!pf || !*pf) return;
  if ((*pf)->type->destroy) (*pf)->type->destroy(*pf);
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
  if (w->nj > 0 && !f->type->joints) return 0;
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

const struct option_decl formulation_common_options[] = {
    {"friction_dirs", OPT_INT, offsetof(struct formulation, friction_dirs), "4", "[3,16]",
     "friction directions per contact in 3D (2D always uses 2)"},
    {"contact_threshold", OPT_REAL, offsetof(struct formulation, threshold), "-1", NULL,
     "contact detection threshold [m] (negative: the world's)"},
};
const int formulation_common_n_options =
    (int)(sizeof formulation_common_options / sizeof formulation_common_options[0]);
