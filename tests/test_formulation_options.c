/* test_formulation_options.c — the declared options of the formulations (option_table.h, formulation.h):
 * for the common table and every registered type's, names are unique and free of '-', each default parses
 * and lies in its range, and a bad value (out of range; malformed: "1e" for a real, "3x" for a whole
 * number) makes formulation_set_from_options fail with a message naming the option. The defaults are
 * today's values (the -nc_gamma / -nc_epsilon "0" meaning computed per step); set values reach the state;
 * the cross-field checks (-nc_gamma in (0, 1], PEG's delta both 0) and the name list for "did you mean". */
#include "check.h"
#include "formulation.h"
#include "nonconvex_groups.h"
#include "peg_lcp.h"
#include "scenes.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets -opt val, reads the options of a fresh `name`, clears the option. Returns set_from_options' status
 * (-1 if the formulation cannot be created); msg gets its message; *keep (optional) the formulation. */
static int read_with(const char *name, const char *opt, const char *val, char *msg, size_t len,
                     struct formulation **keep)
{
  struct formulation *f = NULL;
  int rc = -1;
  msg[0] = '\0';
  if (opt) PetscOptionsSetValue(NULL, opt, val);
  if (formulation_create(name, &f, msg, len) == 0) rc = formulation_set_from_options(f, NULL, msg, len);
  if (opt) PetscOptionsClearValue(NULL, opt);
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
      int rc = read_with(form, opt, bad, msg, sizeof msg, NULL);
      CHECK(rc == 1 && strstr(msg, opt), "%s: %s %s fails naming it (%s)", name, opt, bad, msg);
    }
    double out = (d[i].type == OPT_REAL || d[i].type == OPT_INT) ? outside(d[i].range) : NAN;
    if (isfinite(out)) {
      snprintf(val, sizeof val, "%.17g", out);
      int rc = read_with(form, opt, val, msg, sizeof msg, NULL);
      CHECK(rc == 1 && strstr(msg, opt), "%s: %s %s (outside %s) fails naming it (%s)", name, opt, val,
            d[i].range, msg);
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
  CHECK(read_with("stewart_trinkle", NULL, NULL, msg, sizeof msg, &f) == 0 && f && f->friction_dirs == 4 &&
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
    if (read_with(nc[i], NULL, NULL, msg, sizeof msg, &f) == 0) d = f->data;
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
    if (read_with(pg[i], NULL, NULL, msg, sizeof msg, &f) == 0) s = f->data;
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
  int rc = read_with("nonconvex_max", "-nc_gamma", "100", msg, sizeof msg, &f);
  CHECK(rc == 0 && f && ((const struct nc_form *)f->data)->param == 100.0, "-nc_gamma 100 reaches the state");
  formulation_destroy(&f);
  rc = read_with("nonconvex_sum", "-nc_passive_sides", "0", msg, sizeof msg, &f);
  CHECK(rc == 0 && f && ((const struct nc_form *)f->data)->lcp.passive_sides == 0,
        "-nc_passive_sides 0 reaches the state");
  formulation_destroy(&f);
  rc = read_with("stewart_trinkle", "-friction_dirs", "7", msg, sizeof msg, &f);
  CHECK(rc == 0 && f && f->friction_dirs == 7, "-friction_dirs 7 reaches the formulation");
  formulation_destroy(&f);
  rc = read_with("nonconvex_max", "-nc_gamma", "0.5", msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "nc_gamma must exceed 1"), "-nc_gamma 0.5 fails: %s", msg);
  rc = read_with("nonconvex_max", "-nc_gamma", "1e", msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "-nc_gamma"), "-nc_gamma 1e fails: %s", msg);
  rc = read_with("nonconvex_max", "-friction_dirs", "3x", msg, sizeof msg, NULL);
  CHECK(rc == 1 && strstr(msg, "-friction_dirs"), "-friction_dirs 3x fails: %s", msg);
  PetscOptionsSetValue(NULL, "-peg_distance_factor", "0");
  rc = read_with("peg", "-peg_distance_min", "0", msg, sizeof msg, NULL);
  PetscOptionsClearValue(NULL, "-peg_distance_factor");
  CHECK(rc == 1 && strstr(msg, "-peg_distance_factor") && strstr(msg, "-peg_distance_min"),
        "peg: delta's factor and minimum both 0 fails: %s", msg);
  rc = read_with("lnc", "-lnc_distance_factor", "0", msg, sizeof msg, NULL);
  CHECK(rc == 0, "lnc: -lnc_distance_factor 0 alone is fine (%s)", msg);
  rc = formulation_create("no_such_formulation", &f, msg, sizeof msg);
  CHECK(rc == 1 && !f && strstr(msg, "no_such_formulation") && strstr(msg, "stewart_trinkle"),
        "unknown name: the message lists the valid names (%s)", msg);
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
  check_hook_message();
  check_names_and_help();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
