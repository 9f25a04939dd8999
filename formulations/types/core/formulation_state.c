/* formulation_state.c — what a problem corpus needs to assemble a step's problem again through the registry
 * (formulation.h): the option values in effect as "-name value" lines, read back through the options
 * database by formulation_set_from_options, and the state a formulation carries from one step to the next
 * (carry_get / carry_set hooks; Chakraborty et al.'s geometrically implicit formulations shift their
 * unknowns by the previous step's answer). */
#include "formulation.h"

#include <stdlib.h>
#include <string.h>

/* Appends one "-name value" line per row of d (fields of obj); 1 when buf is full. */
static int put_table(const struct option_decl *d, int n, const void *obj, char *buf, size_t len, size_t *used)
{
  for (int i = 0; i < n; i++) {
    const char *field = (const char *)obj + d[i].offset;
    char value[OPTION_STRING_MAX + 32] = "";
    int iv;
    double dv;
    switch (d[i].type) {
    case OPT_REAL:
      memcpy(&dv, field, sizeof dv);
      snprintf(value, sizeof value, "%.17g", dv);
      break;
    case OPT_INT:
    case OPT_BOOL:
      memcpy(&iv, field, sizeof iv);
      snprintf(value, sizeof value, "%d", iv);
      break;
    case OPT_STRING: snprintf(value, sizeof value, "%s", field); break;
    case OPT_CHOICE: {
      /* the index-th name of the "a|b|c" list */
      memcpy(&iv, field, sizeof iv);
      const char *r = d[i].range ? d[i].range : "";
      for (int k = 0; k < iv && r; k++)
        r = strchr(r, '|') ? strchr(r, '|') + 1 : NULL;
      if (!r) return 1;
      size_t k = strcspn(r, "|");
      snprintf(value, sizeof value, "%.*s", (int)k, r);
      break;
    }
    }
    int k = snprintf(buf + *used, len - *used, "-%s %s\n", d[i].name, value);
    if (k < 0 || (size_t)k >= len - *used) return 1;
    *used += (size_t)k;
  }
  return 0;
}

int formulation_options_text(const struct formulation *f, char *buf, size_t len)
{
  size_t used = 0;
  if (!len) return 1;
  buf[0] = '\0';
  return put_table(formulation_options, formulation_n_options, f, buf, len, &used) ||
         (f->type->n_options && put_table(f->type->options, f->type->n_options, f->data, buf, len, &used));
}

int formulation_carry_get(const struct formulation *f, double **buf, int *n)
{
  *buf = NULL;
  *n = 0;
  if (!f->type->carry_get) return 0;
  int need = f->type->carry_get(f, NULL, 0);
  if (need < 0) return 1;
  if (need == 0) return 0;
  if (!(*buf = malloc((size_t)need * sizeof **buf))) return 1;
  if (f->type->carry_get(f, *buf, need) != need) {
    free(*buf);
    *buf = NULL;
    return 1;
  }
  *n = need;
  return 0;
}

int formulation_carry_set(struct formulation *f, const double *buf, int n)
{
  if (!f->type->carry_set) {
    if (n == 0) return 0;
    return formulation_fail(f, "carries no state between steps, but %d values were given", n);
  }
  return f->type->carry_set(f, buf, n);
}
