/* test_formulation_options.c — the declared options of the formulations (option_table.h, formulation.h):
 * for the common table and every registered type's, names are unique and free of '-', each default parses
 * and lies in its range, and a bad value (out of range; malformed: "1e" for a real, "3x" for a whole
 * number) makes formulation_set_from_options fail with a message naming the option, and the typed setter
 * formulation_set_option too (keeping the settings given before). The defaults are today's values (the
 * -nc_gamma / -nc_epsilon "0" meaning computed per step); set values reach the state; the cross-field
 * checks (-nc_gamma in (0, 1], PEG's delta both 0), also through the setter; a value in one options object
 * never reaches a formulation reading another; the name list for "did you mean". Options are always in
 * objects of the test's own (or given to the setter): nothing here sets a value in the global database. */
#include "check.h"
#include "formulation.h"
#include "nonconvex_groups.h"
#include "peg_lcp.h"
#include "scenes.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the options of a fresh `name` from an options object of the test's own holding the option / value
 * pairs opts (NULL: none). Returns set_from_options' status (-1 if the formulation cannot be created); msg
 * gets its message; *keep (optional) the formulation. */
static int read_with(const char *name, const char *const *opts, char *msg, size_t len,
                     struct formulation **keep)
{
  struct formulation *f = NULL;
  int rc = -1;
  msg[0] = '\0';
  PetscOptions o = test_options_object(opts);
  if (formulation_create(name, &f, msg, len) == 0) rc = formulation_set_from_options(f, o, msg, len);
  PetscOptionsDestroy(&o);
  if (keep && rc == 0)
    *keep = f;
  else
    formulation_destroy(&f);
  return rc;
}

/* A value outside the row's interval, or NAN when the interval is unbounded both ways. */
static double outside(const char *range)
{
  if (!range || !range[0]) return NAN;
  const char *comma = strchr(range, ',');
  double lo = strtod(range + 1, NULL), hi = comma ? strtod(comma + 1, NULL) : INFINITY;
  if (isfinite(hi)) return hi + 1.0;
  if (isfinite(lo)) return lo - 1.0;
  return NAN;
}

/* formulation_set_option refuses opt val on a fresh `name` naming opt, and keeps the setting given before it
 * (-contact_threshold 0.25, or -friction_dirs 7 when opt is the threshold). */
static int setter_refuses(const char *name, const char *opt, const char *val)
{
  char msg[512] = "";
  int threshold = strcmp(opt, "-contact_threshold") == 0;
  struct formulation *f =
      test_formulation(name, threshold ? OPTS("-friction_dirs", "7") : OPTS("-contact_threshold", "0.25"));
  int ok = f && formulation_set_option(f, opt, val, msg, sizeof msg) == 1 && strstr(msg, opt) &&
           (threshold ? f->friction_dirs == 7 : f->threshold == 0.25);
  if (!ok) printf("# %s %s %s: the setter's message '%s'\n", name, opt, val, msg);
  formulation_destroy(&f);
  return ok;
}

static const char *malformed(enum option_type t)
{
  switch (t) {
  case OPT_REAL: return "1e";
  case OPT_INT: return "3x";
  case OPT_BOOL: return "maybe";
  case OPT_CHOICE: return "nope";
  case OPT_STRING: return NULL;
  }
  return NULL;
}

/* Table checks and bad values for one table, read through formulation `form`. */
static void check_table(const char *name, const char *form, const struct option_decl *d, int n)
{
  char msg[512], opt[160], val[64];
  if (!d) return; /* a type without options of its own */
  for (int i = 0; i < n; i++) {
    CHECK(d[i].name && d[i].name[0] != '-' && d[i].help && d[i].def,
          "%s: row %d (%s) has a name without '-', help, default", name, i, d[i].name ? d[i].name : "NULL");
    if (!d[i].name) continue;
    int dup = 0;
    for (int j = 0; j < i; j++)
      dup |= strcmp(d[i].name, d[j].name) == 0;
    for (int j = 0; j < formulation_n_options && d != formulation_options; j++)
      dup |= strcmp(d[i].name, formulation_options[j].name) == 0;
    CHECK(!dup, "%s: -%s declared once", name, d[i].name);
    if (d[i].type == OPT_REAL || d[i].type == OPT_INT) {
      double x;
      CHECK(option_in_range(d[i].range, 0.0) >= 0, "%s: -%s range '%s' is well-formed", name, d[i].name,
            d[i].range ? d[i].range : "");
      CHECK(option_parse_real(d[i].def, &x) == 0 && option_in_range(d[i].range, x) == 1,
            "%s: -%s default %s lies in %s", name, d[i].name, d[i].def, d[i].range ? d[i].range : "any");
    }
    snprintf(opt, sizeof opt, "-%s", d[i].name);
    const char *bad = malformed(d[i].type);
    if (bad) {
      int rc = read_with(form, OPTS(opt, bad), msg, sizeof msg, NULL);
      CHECK(rc == 1 && strstr(msg, opt) && setter_refuses(form, opt, bad),
            "%s: %s %s fails naming it, read and set (%s)", name, opt, bad, msg);
    }
    double out = (d[i].type == OPT_REAL || d[i].type == OPT_INT) ? outside(d[i].range) : NAN;
    if (isfinite(out)) {
      snprintf(val, sizeof val, "%.17g", out);
      int rc = read_with(form, OPTS(opt, val), msg, sizeof msg, NULL);
      CHECK(rc == 1 && strstr(msg, opt) && setter_refuses(form, opt, val),
            "%s: %s %s (outside %s) fails naming it, read and set (%s)", name, opt, val, d[i].range, msg);
    }
  }
}

/* The row of the type's table called opt (without '-'), or NULL. */
static const struct option_decl *row(const struct formulation_type *t, const char *opt)
{
  for (int i = 0; i < t->n_options; i++)
    if (strcmp(t->options[i].name, opt) == 0) return &t->options[i];
  return NULL;
}

/* The default text of today's hard-coded value: the tables replaced these assignments. */
static void check_default(const char *type, const char *opt, const char *expect)
{
  const struct formulation_type *t = formulation_find(type);
  const struct option_decl *r = t ? row(t, opt) : NULL;
  double a, b;
  CHECK(r && option_parse_real(r->def, &a) == 0 && option_parse_real(expect, &b) == 0 && a == b,
        "%s: -%s defaults to %s (as before the tables)", type, opt, expect);
}

static void check_defaults(void)
{
  struct formulation *f = NULL;
  char msg[512];
  CHECK(read_with("stewart_trinkle", NULL, msg, sizeof msg, &f) == 0 && f && f->friction_dirs == 4 &&
            f->threshold == -1.0,
        "common defaults: -friction_dirs 4, -contact_threshold -1 (the world's)");
  formulation_destroy(&f);
  check_default("stewart_trinkle", "stewart_trinkle_penetration_correction", "1");
  check_default("corrective", "stewart_trinkle_penetration_correction", "1");
  check_default("acceleration_lcp", "acceleration_lcp_alpha", "0");
  check_default("acceleration_lcp", "acceleration_lcp_beta", "0");
  check_default("impulse_lcp", "impulse_lcp_restitution", "0");
  check_default("impulse_lcp", "impulse_lcp_baumgarte", "0.2");
  check_default("impulse_lcp", "impulse_lcp_slop", "1e-6");
  check_default("anitescu_hart_lcp1", "anitescu_hart_tol", "1e-5");
  check_default("anitescu_hart_lcp1", "anitescu_hart_max_iterations", "100");
  const struct option_decl *norm = row(formulation_find("anitescu_hart_lcp1"), "anitescu_hart_norm");
  CHECK(norm && strcmp(norm->def, "2") == 0, "anitescu_hart_lcp1: -anitescu_hart_norm defaults to 2");
  /* Without any option the nonconvex constants are "computed per step" (0) and passive sides are on. */
  const char *nc[] = {"nonconvex_max", "nonconvex_sum"};
  for (int i = 0; i < 2; i++) {
    f = NULL;
    const struct nc_form *d = NULL;
    if (read_with(nc[i], NULL, msg, sizeof msg, &f) == 0) d = f->data;
    CHECK(d && d->param == 0.0 && d->lcp.passive_sides == 1,
          "%s: constant computed per step, passive sides on", nc[i]);
    formulation_destroy(&f);
  }
  /* PEG and LNC: the table gives peg_settings_default's values (the settings lead the state). */
  const char *pg[] = {"peg", "lnc"};
  for (int i = 0; i < 2; i++) {
    struct peg_settings ref;
    peg_settings_default(&ref, i == 0);
    f = NULL;
    const struct peg_settings *s = NULL;
    if (read_with(pg[i], NULL, msg, sizeof msg, &f) == 0) s = f->data;
    CHECK(s && s->detect.distance_factor == ref.detect.distance_factor &&
              s->detect.distance_min == ref.detect.distance_min && s->detect.predict == ref.detect.predict &&
              s->detect.swept == ref.detect.swept && s->applicability == ref.applicability &&
              s->swap_tol == ref.swap_tol && s->cross == ref.cross,
          "%s: table defaults = peg_settings_default", pg[i]);
    formulation_destroy(&f);
  }
}

static void check_values_and_hooks(void)
{
  struct formulation *f = NULL;
  char msg[512];
  int rc = read_with("nonconvex_max", OPTS("-nc_gamma", "100"), msg, sizeof msg, &f);
  CHECK(rc == 0 && f && ((const struct nc_form *)f->data)->param == 100.0, "-nc_gamma 100 reaches the state");
  formulation_destroy(&f);
  rc = read_with("nonconvex_sum", OPTS("-nc_passive_sides", "0"), msg, sizeof msg, &f);
  CHECK(rc == 0 && f && ((const struct nc_form *)f->data)->lcp.passive_sides == 0,
        "-nc_passive_sides 0 reaches the state");
  formulation_destroy(&f);
  rc = read_with("stewart_trinkle", OPTS("-friction_dirs", "7"), msg, sizeof msg, &f);
  CHECK(rc == 0 && f && f->friction_dirs == 7, "-friction_dirs 7 reaches the formulation");
  formulation_destroy(&f);
  rc = read_with("nonconvex_max", OPTS("-nc_gamma", "0.5"), msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "nc_gamma must exceed 1"), "-nc_gamma 0.5 fails: %s", msg);
  rc = read_with("nonconvex_max", OPTS("-nc_gamma", "1e"), msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "-nc_gamma"), "-nc_gamma 1e fails: %s", msg);
  rc = read_with("nonconvex_max", OPTS("-friction_dirs", "3x"), msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "-friction_dirs"), "-friction_dirs 3x fails: %s", msg);
  rc = read_with("peg", OPTS("-peg_distance_factor", "0", "-peg_distance_min", "0"), msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "-peg_distance_factor") && strstr(msg, "-peg_distance_min"),
        "peg: delta's factor and minimum both 0 fails: %s", msg);
  rc = read_with("lnc", OPTS("-lnc_distance_factor", "0"), msg, sizeof msg, NULL);
  CHECK(rc == 0, "lnc: -lnc_distance_factor 0 alone is fine (%s)", msg);
  rc = formulation_create("no_such_formulation", &f, msg, sizeof msg);
  CHECK(rc == 1 && !f && strstr(msg, "no_such_formulation") && strstr(msg, "stewart_trinkle"),
        "unknown name: the message lists the valid names (%s)", msg);
}

/* Each formulation reads only the object it is given (three objects alive at once), and the typed setter
 * reads its values as a run reads a task's object: an option the type does not read, a bad value and a
 * cross-field conflict are refused, named in the message, and the settings given before stay. */
static void check_objects_and_setter(void)
{
  char msg[512] = "";
  PetscOptions a = test_options_object(OPTS("-friction_dirs", "7", "-nc_gamma", "100"));
  struct formulation *fa = NULL, *fb = NULL, *fn = NULL;
  int ok = formulation_create("nonconvex_max", &fa, msg, sizeof msg) == 0 &&
           formulation_set_from_options(fa, a, msg, sizeof msg) == 0;
  ok = ok && read_with("nonconvex_max", OPTS("-friction_dirs", "5"), msg, sizeof msg, &fb) == 0 &&
       read_with("nonconvex_max", NULL, msg, sizeof msg, &fn) == 0;
  char **names = NULL, **values = NULL;
  int left = option_unused(a, &names, &values);
  option_unused_free(left, names, values);
#define GAMMA(f) ((const struct nc_form *)(f)->data)->param
  CHECK(ok && fa->friction_dirs == 7 && GAMMA(fa) == 100.0 && left == 0,
        "nonconvex_max reading object A: -friction_dirs 7, -nc_gamma 100, both read from A %s", msg);
  CHECK(
      ok && fb->friction_dirs == 5 && GAMMA(fb) == 0.0,
      "nonconvex_max reading object B: its -friction_dirs 5, A's -nc_gamma not seen (0: computed per step)");
  CHECK(ok && fn->friction_dirs == 4 && GAMMA(fn) == 0.0,
        "nonconvex_max reading an empty object: the defaults");
#undef GAMMA
  formulation_destroy(&fa);
  formulation_destroy(&fb);
  formulation_destroy(&fn);
  PetscOptionsDestroy(&a);

  struct formulation *f =
      test_formulation("stewart_trinkle", OPTS("-friction_dirs", "7", "contact_threshold", "0.25"));
#define KEPT(f) ((f) && (f)->friction_dirs == 7 && (f)->threshold == 0.25)
  CHECK(KEPT(f), "stewart_trinkle: -friction_dirs 7 and contact_threshold (no '-') 0.25 set");
  int rc = f ? formulation_set_option(f, "-nc_gamma", "100", msg, sizeof msg) : 0;
  CHECK(rc == 1 && strstr(msg, "-nc_gamma") && strstr(msg, "stewart_trinkle") && KEPT(f),
        "stewart_trinkle refuses -nc_gamma, keeps -friction_dirs 7 and -contact_threshold 0.25 (%s)", msg);
  rc = f ? formulation_set_option(f, "-stewart_trinkle_detection", "nearest", msg, sizeof msg) : 0;
  CHECK(rc == 1 && strstr(msg, "-stewart_trinkle_detection") && strstr(msg, "nearest") && KEPT(f),
        "stewart_trinkle refuses -stewart_trinkle_detection nearest, keeps the others (%s)", msg);
  rc = f ? formulation_set_option(f, "-friction_dirs", "99", msg, sizeof msg) : 0;
  CHECK(rc == 1 && strstr(msg, "99") && KEPT(f),
        "-friction_dirs 99 refused: -friction_dirs stays 7, not its default (%s)", msg);
#undef KEPT
  formulation_destroy(&f);
  struct peg_settings ref;
  peg_settings_default(&ref, 1);
  f = test_formulation("peg", OPTS("-peg_distance_factor", "0"));
  const struct peg_settings *ps = f ? f->data : NULL;
  CHECK(ps && ps->detect.distance_factor == 0.0, "peg: -peg_distance_factor 0 alone is set");
  rc = f ? formulation_set_option(f, "-peg_distance_min", "0", msg, sizeof msg) : 0;
  CHECK(rc == 1 && ps && strstr(msg, "-peg_distance_factor") && strstr(msg, "-peg_distance_min") &&
            ps->detect.distance_factor == 0.0 && ps->detect.distance_min == ref.detect.distance_min,
        "peg: then -peg_distance_min 0 fails the cross-field check, factor 0 and minimum %g stay (%s)",
        ref.detect.distance_min, msg);
  formulation_destroy(&f);
}

/* A failing hook says why in f->message, the formulation named first; the caller prints it. */
static void check_hook_message(void)
{
  struct formulation *f = NULL;
  struct world *w = scene_incline_3d(0.3, 0.5, 0.5, 0.5, 0.5, 1.0);
  struct contact_set cs = {0};
  struct cp_problem *p = NULL;
  int rc = -1;
  if (w && formulation_create("stewart_trinkle", &f, NULL, 0) == 0 &&
      world_detect(w, w->threshold, &cs) == 0) {
    f->friction_dirs = 17; /* past the options' range: only code can set it */
    rc = f->type->assemble(f, w, &cs, 0.01, &p);
  }
  CHECK(rc == 1 && !p && f && strstr(f->message, "stewart_trinkle: 17 friction directions"),
        "a failed assemble fills f->message (%s)", f ? f->message : "no formulation");
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

static void check_names_and_help(void)
{
  const char **names = NULL;
  int n = formulation_option_names(&names), total = formulation_n_options, passive = 0, missing = 0;
  for (int i = 0; formulation_registry[i]; i++)
    total += formulation_registry[i]->n_options;
  for (int i = 0; i < n; i++)
    passive += strcmp(names[i], "nc_passive_sides") == 0;
  for (int i = 0; formulation_registry[i]; i++)
    for (int j = 0; j < formulation_registry[i]->n_options; j++) {
      int found = 0;
      for (int k = 0; k < n; k++)
        found |= strcmp(names[k], formulation_registry[i]->options[j].name) == 0;
      missing += !found;
    }
  CHECK(n > 0 && n < total && passive == 1 && missing == 0,
        "formulation_option_names: %d names, each table row present, shared ones once", n);
  const char *near = n > 0 ? option_nearest("nc_gama", names, n) : NULL;
  CHECK(near && strcmp(near, "nc_gamma") == 0, "did you mean: nc_gama -> %s", near ? near : "(none)");
  free(names);

  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  if (out) {
    formulation_print_options(out, formulation_find("nonconvex_max"));
    fclose(out);
  }
  CHECK(text && strstr(text, "-friction_dirs") && strstr(text, "-nc_gamma") &&
            strstr(text, "computed per step"),
        "formulation_print_options lists the common and the type's options with 'computed per step'");
  free(text);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  check_table("common", "stewart_trinkle", formulation_options, formulation_n_options);
  for (int i = 0; formulation_registry[i]; i++) {
    const struct formulation_type *t = formulation_registry[i];
    CHECK(t->n_options == 0 || t->options, "%s: %d declared options", t->name, t->n_options);
    check_table(t->name, t->name, t->options, t->n_options);
  }
  check_defaults();
  check_values_and_hooks();
  check_objects_and_setter();
  check_hook_message();
  check_names_and_help();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
