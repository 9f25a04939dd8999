/* corpus_rebuild.c — a captured callback problem assembled again through the formulation registry
 * (corpus_rebuild.h): world text -> world, formulation by name with the run's option values (read from an
 * options object of their own, so nothing mixes with the replay's own options), carried state, detect,
 * assemble at h. Chakraborty et al.'s formulations shift their unknowns by the carried state, so without
 * it a later step's problem would be another (equivalent, shifted) problem. */
#include "corpus_rebuild.h"

#include "world_detect.h"
#include "world_io.h"

#include <math.h>
#include <petscsys.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An options object holding each "-name value" line of text (the run's option values, as
 * formulation_options_text wrote them). 0, or 1 with err. */
static int options_from_text(const char *text, PetscOptions *o, char *err, size_t len)
{
  if (PetscOptionsCreate(o)) return snprintf(err, len, "cannot create an options object"), 1;
  for (const char *p = text; *p;) {
    const char *eol = strchr(p, '\n');
    size_t k = eol ? (size_t)(eol - p) : strlen(p);
    char line[OPTION_STRING_MAX + 160];
    char *sp = NULL;
    if (k < sizeof line && p[0] == '-') {
      memcpy(line, p, k);
      line[k] = '\0';
      sp = strchr(line, ' ');
    }
    if (!sp) {
      snprintf(err, len, "bad option line '%.*s' in the stored options", (int)(k < 200 ? k : 200), p);
      return 1;
    }
    *sp = '\0';
    if (PetscOptionsSetValue(*o, line, sp + 1)) {
      snprintf(err, len, "%s: cannot be set in an options object", line);
      return 1;
    }
    p += k + (eol ? 1 : 0);
  }
  return 0;
}

void corpus_rebuilt_free(struct corpus_rebuilt **r)
{
  if (!r || !*r) return;
  cp_destroy(&(*r)->p);
  formulation_destroy(&(*r)->f);
  contact_set_free(&(*r)->cs);
  world_destroy(&(*r)->w);
  corpus_callback_free(&(*r)->cb);
  free(*r);
  *r = NULL;
}

int corpus_rebuild(const struct corpus *c, int i, struct corpus_rebuilt **out, char *err, size_t len)
{
  const struct corpus_meta *m = corpus_meta_at(c, i);
  struct corpus_rebuilt *r = calloc(1, sizeof *r);
  PetscOptions stored = NULL;
  char msg[512] = "";
  *out = NULL;
  if (!r) return snprintf(err, len, "out of memory"), 1;
  if (corpus_read_callback(c, i, &r->cb, err, len)) goto fail;
  if (world_from_text(r->cb.world, r->cb.world_len, &r->w, msg, sizeof msg)) {
    snprintf(err, len, "%s: %s", m->name, msg);
    goto fail;
  }
  if (formulation_create(m->formulation, &r->f, msg, sizeof msg)) {
    snprintf(err, len, "%s: %s", m->name, msg);
    goto fail;
  }
  int bad = options_from_text(r->cb.options, &stored, msg, sizeof msg) ||
            formulation_set_from_options(r->f, stored, msg, sizeof msg);
  if (stored) PetscOptionsDestroy(&stored);
  if (bad) {
    snprintf(err, len, "%s: the formulation's options: %s", m->name, msg);
    goto fail;
  }
  if (formulation_carry_set(r->f, r->cb.carry, r->cb.carry_n)) {
    snprintf(err, len, "%s: %s", m->name, r->f->message);
    goto fail;
  }
  const struct formulation *f = r->f;
  int rc = f->type->detect ? f->type->detect(r->f, r->w, m->h, &r->cs)
                           : world_detect(r->w, f->threshold >= 0.0 ? f->threshold : r->w->threshold, &r->cs);
  r->f->round = 0;
  if (rc || f->type->assemble(r->f, r->w, &r->cs, m->h, &r->p)) {
    snprintf(err, len, "%s: %s %s failed: %s", m->name, m->formulation, rc ? "detect" : "assemble",
             f->message);
    goto fail;
  }
  if (r->p->n != m->n || r->p->n_eq != m->n_eq) {
    snprintf(err, len, "%s: rebuilt with n = %d, n_eq = %d; the run's had n = %d, n_eq = %d", m->name,
             r->p->n, r->p->n_eq, m->n, m->n_eq);
    goto fail;
  }
  snprintf(r->p->name, sizeof r->p->name, "%s", m->name);
  *out = r;
  return 0;
fail:
  corpus_rebuilt_free(&r);
  return 1;
}

/* Bit for bit: a bound is data, -0.0 and 0.0 are different stored values. */
static int same_bits(double a, double b)
{
  uint64_t x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  return x == y;
}

double corpus_rebuilt_difference(const struct corpus_rebuilt *r)
{
  const int n = r->p->n;
  double *F = malloc((size_t)n * sizeof *F), worst = 0.0;
  if (!F || cp_eval_F(r->p, r->cb.z0, F)) {
    free(F);
    return INFINITY;
  }
  for (int i = 0; i < n; i++) {
    if (!same_bits(r->p->lo[i], r->cb.lo[i]) || !same_bits(r->p->hi[i], r->cb.hi[i])) worst = INFINITY;
    double d = fabs(F[i] - r->cb.Fz0[i]) / fmax(1.0, fabs(r->cb.Fz0[i]));
    if (!(d <= worst)) worst = d; /* NaN counts as the worst */
  }
  free(F);
  return worst;
}
