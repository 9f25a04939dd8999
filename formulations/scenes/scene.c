/* scene.c — the scene registry's look-up, options and building (scene.h): a spec "name:opt=value:..." is
 * looked up by its name; its options come from the defaults, the PETSc database (-<scene>_<opt>) and the
 * spec's inline values, each through option_table's one strict reader; the built world is checked (bodies,
 * finalised). Messages go to the caller's buffer. */
#include "scene.h"

#include <stdlib.h>
#include <string.h>

const struct scene_type *scene_find(const char *name)
{
  for (int i = 0; name && scene_registry[i]; i++)
    if (strcmp(scene_registry[i]->name, name) == 0) return scene_registry[i];
  return NULL;
}

static void default_prefix(const struct scene_type *t, char *buf, size_t n)
{
  snprintf(buf, n, "%s_", t->name);
}

void scene_registry_print(FILE *out)
{
  fprintf(out, "Scenes (a spec is NAME or NAME:opt=value:...; options -NAME_opt):\n");
  for (int i = 0; scene_registry[i]; i++) {
    const struct scene_type *t = scene_registry[i];
    char prefix[128];
    default_prefix(t, prefix, sizeof prefix);
    fprintf(out, "  %-16s %s  %s\n    [%s; h = %g s%s]\n", t->name, (t->dims & SCENE_3D) ? "3D" : "2D",
            t->summary, t->paper, t->h, t->falls ? "; bodies fall into place" : "");
    option_print(out, t->options, t->n_options, prefix);
  }
}

/* Appends the comma-separated registered names to msg (truncated to len). */
static void append_names(char *msg, size_t len)
{
  for (int i = 0; scene_registry[i]; i++) {
    size_t used = strlen(msg);
    if (used + 1 >= len) return;
    snprintf(msg + used, len - used, "%s%s", i ? "," : "", scene_registry[i]->name);
  }
}

int scene_lookup(const char *spec, const struct scene_type **t, char *msg, size_t len)
{
  char name[SCENE_SPEC_MAX];
  *t = NULL;
  if (!spec) spec = "";
  size_t n = strcspn(spec, ":");
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, spec, n);
  name[n] = '\0';
  *t = scene_find(name);
  if (*t) return 0;
  snprintf(msg, len, "unable to find requested scene '%s'; valid: ", name);
  append_names(msg, len);
  return 1;
}

/* The spec's inline "opt=value" items, applied over settings with the same strict reader as the database
 * (a one-row table whose default is the value). A name not declared, or given twice, is refused. */
static int apply_inline(const char *spec, const struct scene_type *t, void *settings, char *msg, size_t len)
{
  char buf[SCENE_SPEC_MAX], err[512];
  unsigned char seen[64] = {0};
  if (strlen(spec) >= sizeof buf) {
    snprintf(msg, len, "scene spec '%.40s...' is longer than %d characters", spec, SCENE_SPEC_MAX - 1);
    return 1;
  }
  strcpy(buf, spec);
  char *p = strchr(buf, ':');
  while (p) {
    char *item = p + 1, *next = strchr(item, ':');
    if (next) *next = '\0';
    p = next;
    char *eq = strchr(item, '=');
    if (!eq || eq == item) {
      snprintf(msg, len, "scene %s: '%s' is not opt=value", spec, item);
      return 1;
    }
    *eq = '\0';
    int k = -1;
    for (int i = 0; i < t->n_options && k < 0; i++)
      if (strcmp(t->options[i].name, item) == 0) k = i;
    if (k < 0) {
      const char *names[64];
      int n = t->n_options < 64 ? t->n_options : 64;
      for (int i = 0; i < n; i++)
        names[i] = t->options[i].name;
      const char *near = option_nearest(item, names, n);
      snprintf(msg, len, "scene %s: %s has no option '%s'%s%s%s", spec, t->name, item,
               near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
      return 1;
    }
    if (k < 64 && seen[k]++) {
      snprintf(msg, len, "scene %s: option '%s' given twice", spec, item);
      return 1;
    }
    struct option_decl one = t->options[k];
    one.def = eq + 1;
    if (option_defaults(&one, 1, settings, err, sizeof err)) { /* the reader says "-opt"; here it is opt= */
      snprintf(msg, len, "scene %s: %s", spec, err[0] == '-' ? err + 1 : err);
      return 1;
    }
  }
  return 0;
}

/* use_options 0: defaults and the spec only; 1: also opts (NULL then means PETSc's global database). */
static int settings_read(const char *spec, PetscOptions opts, const char *prefix, int use_options,
                         const struct scene_type **t, void *settings, char *msg, size_t len)
{
  char pre[128], err[512];
  if (scene_lookup(spec, t, msg, len)) return 1;
  if (!prefix) {
    default_prefix(*t, pre, sizeof pre);
    prefix = pre;
  }
  int bad = use_options ? option_read((*t)->options, (*t)->n_options, opts, prefix, settings, err, sizeof err)
                        : option_defaults((*t)->options, (*t)->n_options, settings, err, sizeof err);
  if (bad) {
    snprintf(msg, len, "scene %s: %s", (*t)->name, err);
    return 1;
  }
  return apply_inline(spec, *t, settings, msg, len);
}

int scene_build(const struct scene_type *t, const void *settings, gsl_rng *rng, struct world **w, char *msg,
                size_t len)
{
  char err[512] = "";
  *w = NULL;
  if (t->build(settings, rng, w, err, sizeof err) || !*w) {
    snprintf(msg, len, "scene %s: %s", t->name, err[0] ? err : "cannot build the world");
    world_destroy(w);
    return 1;
  }
  if ((*w)->nb < 1 || world_finalize(*w) != 0) {
    snprintf(msg, len, "scene %s: the built world is not valid (%d bodies)", t->name, (*w)->nb);
    world_destroy(w);
    return 1;
  }
  return 0;
}

static int create(const char *spec, PetscOptions opts, const char *prefix, int use_options, gsl_rng *rng,
                  struct world **w, char *msg, size_t len)
{
  const struct scene_type *t = NULL;
  void *settings = NULL;
  int rc = 1;
  *w = NULL;
  if (scene_lookup(spec, &t, msg, len)) goto cleanup;
  settings = calloc(1, t->settings_size ? t->settings_size : 1);
  if (!settings) {
    snprintf(msg, len, "scene %s: out of memory", t->name);
    goto cleanup;
  }
  if (settings_read(spec, opts, prefix, use_options, &t, settings, msg, len)) goto cleanup;
  rc = scene_build(t, settings, rng, w, msg, len);
cleanup:
  free(settings);
  return rc;
}

int scene_create_from_options(const char *spec, PetscOptions opts, const char *prefix, gsl_rng *rng,
                              struct world **w, char *msg, size_t len)
{
  return create(spec, opts, prefix, 1, rng, w, msg, len);
}

int scene_create_from_spec(const char *spec, gsl_rng *rng, struct world **w, char *msg, size_t len)
{
  return create(spec, NULL, NULL, 0, rng, w, msg, len);
}

int scene_spec_check(const char *spec, PetscOptions opts, const char *prefix, char *msg, size_t len)
{
  const struct scene_type *t = NULL;
  if (scene_lookup(spec, &t, msg, len)) return 1;
  void *settings = calloc(1, t->settings_size ? t->settings_size : 1);
  if (!settings) {
    snprintf(msg, len, "scene %s: out of memory", t->name);
    return 1;
  }
  int rc = settings_read(spec, opts, prefix, 1, &t, settings, msg, len);
  free(settings);
  return rc;
}
