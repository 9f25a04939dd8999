/* option_table.c — the one reader of declared options (option_table.h): defaults from the table's text,
 * values from the PETSc options database (read as strings, so that PETSc marks them used, then parsed
 * here strictly: PETSc's own readers accept "3x" as 3 with a printed trace), range checks, the list of
 * options nobody read, and the nearest declared name for a misspelt one. */
#include "option_table.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int option_parse_real(const char *text, double *x)
{
  char *end = NULL;
  if (!text || !text[0]) return 1;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v)) return 1;
  *x = v;
  return 0;
}

int option_parse_int(const char *text, long *x)
{
  char *end = NULL;
  if (!text || !text[0]) return 1;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0') return 1;
  *x = v;
  return 0;
}

/* One end of an interval: "inf", "-inf" or a number. */
static int parse_end(const char *s, size_t len, double *x)
{
  char buf[64];
  if (len == 0 || len >= sizeof buf) return 1;
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (strcmp(buf, "inf") == 0) return *x = INFINITY, 0;
  if (strcmp(buf, "-inf") == 0) return *x = -INFINITY, 0;
  return option_parse_real(buf, x);
}

int option_in_range(const char *r, double x)
{
  if (!r || !r[0]) return 1;
  size_t len = strlen(r);
  const char *comma = strchr(r, ',');
  if (len < 5 || !comma || (r[0] != '[' && r[0] != '(') || (r[len - 1] != ']' && r[len - 1] != ')'))
    return -1;
  double lo, hi;
  if (parse_end(r + 1, (size_t)(comma - r - 1), &lo) ||
      parse_end(comma + 1, (size_t)(r + len - 1 - comma - 1), &hi))
    return -1;
  int lo_ok = r[0] == '[' ? x >= lo : x > lo;
  int hi_ok = r[len - 1] == ']' ? x <= hi : x < hi;
  return lo_ok && hi_ok;
}

/* Index of text in the "a|b|c" list, -1 when absent. */
static int choice_index(const char *list, const char *text)
{
  size_t tl = strlen(text);
  int i = 0;
  for (const char *p = list; p; i++) {
    const char *bar = strchr(p, '|');
    size_t l = bar ? (size_t)(bar - p) : strlen(p);
    if (l == tl && strncmp(p, text, l) == 0) return i;
    p = bar ? bar + 1 : NULL;
  }
  return -1;
}

/* Parses text into the row's field; 0 on success, else msg says why ("-" name from full). */
static int set_field(const struct option_decl *o, const char *full, const char *text, void *obj, char *msg,
                     size_t len)
{
  char *field = (char *)obj + o->offset;
  switch (o->type) {
  case OPT_REAL: {
    double x;
    if (option_parse_real(text, &x)) {
      snprintf(msg, len, "%s: '%s' is not a number", full, text);
      return 1;
    }
    int in = option_in_range(o->range, x);
    if (in != 1) {
      snprintf(msg, len, "%s %s: out of range %s (%s)", full, text, o->range, o->help ? o->help : "");
      return 1;
    }
    memcpy(field, &x, sizeof x);
    return 0;
  }
  case OPT_INT: {
    long x;
    if (option_parse_int(text, &x) || x < -2147483647L || x > 2147483647L) {
      snprintf(msg, len, "%s: '%s' is not a whole number", full, text);
      return 1;
    }
    if (option_in_range(o->range, (double)x) != 1) {
      snprintf(msg, len, "%s %s: out of range %s (%s)", full, text, o->range, o->help ? o->help : "");
      return 1;
    }
    int v = (int)x;
    memcpy(field, &v, sizeof v);
    return 0;
  }
  case OPT_BOOL: {
    int v;
    if (!text[0] || strcmp(text, "1") == 0 || strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0)
      v = 1;
    else if (strcmp(text, "0") == 0 || strcasecmp(text, "false") == 0 || strcasecmp(text, "no") == 0)
      v = 0;
    else {
      snprintf(msg, len, "%s: '%s' is not a truth value (0, 1, true, false)", full, text);
      return 1;
    }
    memcpy(field, &v, sizeof v);
    return 0;
  }
  case OPT_STRING:
    if (strlen(text) >= OPTION_STRING_MAX) {
      snprintf(msg, len, "%s: the value is longer than %d characters", full, OPTION_STRING_MAX - 1);
      return 1;
    }
    strcpy(field, text);
    return 0;
  case OPT_CHOICE: {
    int i = choice_index(o->range ? o->range : "", text);
    if (i < 0) {
      snprintf(msg, len, "%s: '%s' is not one of %s", full, text, o->range ? o->range : "");
      return 1;
    }
    memcpy(field, &i, sizeof i);
    return 0;
  }
  }
  snprintf(msg, len, "%s: unknown option type", full);
  return 1;
}

static void full_name(char *buf, size_t n, const char *prefix, const char *name)
{
  snprintf(buf, n, "-%s%s", prefix ? prefix : "", name);
}

int option_defaults(const struct option_decl *d, int n, void *obj, char *msg, size_t len)
{
  char full[160];
  for (int i = 0; i < n; i++) {
    full_name(full, sizeof full, NULL, d[i].name);
    if (set_field(&d[i], full, d[i].def ? d[i].def : "", obj, msg, len)) return 1;
  }
  return 0;
}

int option_read(const struct option_decl *d, int n, PetscOptions opts, const char *prefix, void *obj,
                char *msg, size_t len)
{
  char full[160];
  if (option_defaults(d, n, obj, msg, len)) return 1;
  for (int i = 0; i < n; i++) {
    PetscBool set = PETSC_FALSE;
    const char *text = NULL;
    full_name(full, sizeof full, prefix, d[i].name);
    /* FindPair hands over the stored value itself (no copy into a fixed buffer, so nothing is cut) and
     * marks the option used in opts */
    if (PetscOptionsFindPair(opts, NULL, full, &text, &set)) {
      snprintf(msg, len, "%s: cannot be read", full);
      return 1;
    }
    if (!set) continue;
    if (!text) text = "";
    if (!text[0] && d[i].type != OPT_BOOL) {
      snprintf(msg, len, "%s needs a value (%s)", full, d[i].help ? d[i].help : "");
      return 1;
    }
    if (set_field(&d[i], full, text, obj, msg, len)) return 1;
  }
  return 0;
}

int option_check_value(const struct option_decl *o, const char *full, const char *text, char *msg, size_t len)
{
  union { /* any field a row fills */
    double real;
    int whole;
    char text[OPTION_STRING_MAX];
  } scratch;
  struct option_decl at_zero = *o;
  at_zero.offset = 0;
  if (!text[0] && o->type != OPT_BOOL) {
    snprintf(msg, len, "%s needs a value (%s)", full, o->help ? o->help : "");
    return 1;
  }
  return set_field(&at_zero, full, text, &scratch, msg, len);
}

void option_print(FILE *out, const struct option_decl *d, int n, const char *prefix)
{
  static const char *const type[] = {"<real>", "<int>", "<0|1>", "<text>", "<choice>"};
  for (int i = 0; i < n; i++) {
    char full[160], lhs[200];
    full_name(full, sizeof full, prefix, d[i].name);
    snprintf(lhs, sizeof lhs, "%s %s", full,
             d[i].type == OPT_CHOICE && d[i].range ? d[i].range : type[d[i].type]);
    fprintf(out, "  %-34s %s (default %s", lhs, d[i].help ? d[i].help : "",
            d[i].def && d[i].def[0] ? d[i].def : "none");
    if (d[i].range && d[i].range[0] && d[i].type != OPT_CHOICE) fprintf(out, "; range %s", d[i].range);
    fprintf(out, ")\n");
  }
}

int option_set_kept(PetscOptions *own, const char *option, const char *value,
                    int (*reread)(void *obj, PetscOptions o, char *msg, size_t len), void *obj,
                    const char *owner, char *msg, size_t len)
{
  char full[192], *old = NULL;
  const char *was = NULL;
  PetscBool had = PETSC_FALSE, used = PETSC_FALSE;
  snprintf(full, sizeof full, "%s%s", option[0] == '-' ? "" : "-", option);
  if (!*own && PetscOptionsCreate(own)) {
    snprintf(msg, len, "%s: cannot create an options object", owner);
    return 1;
  }
  if (PetscOptionsFindPair(*own, NULL, full, &was, &had) == 0 && had && was && !(old = strdup(was))) {
    snprintf(msg, len, "%s: out of memory", owner);
    return 1;
  }
  int bad = PetscOptionsSetValue(*own, full, value && value[0] ? value : NULL) != 0;
  if (bad)
    snprintf(msg, len, "%s: '%s' is not an option name", owner, full);
  else
    bad = reread(obj, *own, msg, len);
  /* PETSc keeps names without their dash */
  if (!bad && (PetscOptionsUsed(*own, full + 1, &used) || !used)) {
    snprintf(msg, len, "%s is not an option of %s", full, owner);
    bad = 1;
  }
  if (bad) { /* back to the settings before this call, the option's earlier value included */
    char keep[1];
    if (had)
      PetscOptionsSetValue(*own, full, old);
    else
      PetscOptionsClearValue(*own, full);
    reread(obj, *own, keep, sizeof keep);
  }
  free(old);
  return bad;
}

/* PETSc's own bookkeeping, never "unused" in our sense. */
static int is_petsc_bookkeeping(const char *name)
{
  static const char *const keep[] = {
      "options_file", "options_left", "help",        "options_monitor",   "options_view",
      "malloc_debug", "malloc_dump",  "malloc_test", "no_signal_handler", "on_error_abort",
      "log_view",     "info",         NULL};
  for (int i = 0; keep[i]; i++)
    if (strcmp(name, keep[i]) == 0) return 1;
  return 0;
}

int option_unused(PetscOptions opts, char ***names, char ***values)
{
  PetscInt n = 0;
  char **pn = NULL, **pv = NULL;
  *names = *values = NULL;
  if (PetscOptionsLeftGet(opts, &n, &pn, &pv)) return -1;
  char **on = calloc((size_t)n + 1, sizeof *on), **ov = calloc((size_t)n + 1, sizeof *ov);
  int k = 0;
  if (!on || !ov) {
    free(on), free(ov);
    PetscOptionsLeftRestore(opts, &n, &pn, &pv);
    return -1;
  }
  for (PetscInt i = 0; i < n; i++) {
    if (is_petsc_bookkeeping(pn[i])) continue;
    on[k] = malloc(strlen(pn[i]) + 2);
    ov[k] = strdup(pv[i] ? pv[i] : "");
    if (on[k]) sprintf(on[k], "-%s", pn[i]);
    k++;
  }
  PetscOptionsLeftRestore(opts, &n, &pn, &pv);
  if (k == 0) { /* nothing left: the caller frees nothing */
    free(on);
    free(ov);
    return 0;
  }
  *names = on;
  *values = ov;
  return k;
}

void option_unused_free(int n, char **names, char **values)
{
  for (int i = 0; i < n; i++) {
    if (names) free(names[i]);
    if (values) free(values[i]);
  }
  free(names);
  free(values);
}

/* Levenshtein distance with two rows (names are short). */
static int edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > 200 || lb > 200) return 1000;
  int prev[201], cur[201];
  for (size_t j = 0; j <= lb; j++)
    prev[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    memcpy(prev, cur, (lb + 1) * sizeof *prev);
  }
  return prev[lb];
}

const char *option_nearest(const char *name, const char *const *candidates, int n)
{
  const char *best = NULL;
  int best_d = 1 << 30;
  for (int i = 0; i < n; i++) {
    int d = edit_distance(name, candidates[i]);
    if (d < best_d) best_d = d, best = candidates[i];
  }
  int allowed = (int)strlen(name) / 3;
  if (allowed < 2) allowed = 2;
  return best_d <= allowed ? best : NULL;
}
