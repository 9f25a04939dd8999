/* implicit_answers.c — the last step's answers per pair of shapes (implicit_answers.h). */
#include "implicit_answers.h"

#include <stdlib.h>

void implicit_answers_free(struct implicit_answers *s)
{
  free(s->a);
  free(s->val);
  s->a = NULL, s->val = NULL;
  s->n = s->cap = s->cap_val = 0;
}

const struct implicit_answer *implicit_answers_find(const struct implicit_answers *s, int sa, int sb)
{
  for (int i = 0; i < s->n; i++)
    if (s->a[i].sa == sa && s->a[i].sb == sb) return &s->a[i];
  return NULL;
}

int implicit_answers_reserve(struct implicit_answers *s, int n, int total)
{
  if (n > s->cap) {
    struct implicit_answer *a = realloc(s->a, (size_t)n * sizeof *a);
    if (!a) return 1;
    s->a = a;
    s->cap = n;
  }
  if (total > s->cap_val) {
    double *v = realloc(s->val, (size_t)total * sizeof *v);
    if (!v) return 1;
    s->val = v;
    s->cap_val = total;
  }
  s->n = 0;
  return 0;
}

double *implicit_answers_add(struct implicit_answers *s, int sa, int sb, int m2, int axis)
{
  int at = s->n > 0 ? s->a[s->n - 1].at + s->width + s->a[s->n - 1].m2 : 0;
  s->a[s->n++] = (struct implicit_answer){.sa = sa, .sb = sb, .m2 = m2, .axis = axis, .at = at};
  return s->val + at;
}

void implicit_answers_layout(struct implicit_answers *s, int dim, int fr, int width)
{
  if (s->dim != dim || s->fr != fr || s->width != width) s->n = 0;
  s->dim = dim;
  s->fr = fr;
  s->width = width;
}
