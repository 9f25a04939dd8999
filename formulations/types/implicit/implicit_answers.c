/* implicit_answers.c — the last step's answers per pair of shapes and their export (implicit_answers.h). */
#include "implicit_answers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int implicit_answers_export(const struct implicit_answers *s, double *buf, int cap)
{
  int need = 1;
  for (int i = 0; i < s->n; i++)
    need += 3 + s->base + s->a[i].m2;
  if (need > cap) return need;
  int k = 0;
  buf[k++] = s->n;
  for (int i = 0; i < s->n; i++) {
    const struct implicit_answer *p = &s->a[i];
    buf[k++] = p->sa;
    buf[k++] = p->sb;
    buf[k++] = p->m2;
    memcpy(buf + k, s->val + p->at, (size_t)(s->base + p->m2) * sizeof *buf);
    k += s->base + p->m2;
  }
  return need;
}

int implicit_answers_import(struct implicit_answers *s, const double *buf, int n, char *msg, size_t len)
{
  int np = n > 0 ? (int)buf[0] : -1, k = 1, total = 0;
  if (n < 1 || np < 0 || np > n) {
    snprintf(msg, len, "carried state: bad pair count");
    return 1;
  }
  for (int i = 0; i < np; i++) { /* sizes first: nothing changes unless the whole state fits */
    int m2 = k + 2 < n ? (int)buf[k + 2] : -1;
    if (m2 < s->m2_min || m2 < 0 || m2 > n || k + 3 + s->base + m2 > n) {
      snprintf(msg, len, "carried state: truncated");
      return 1;
    }
    total += s->base + m2;
    k += 3 + s->base + m2;
  }
  if (k != n) {
    snprintf(msg, len, "carried state: %d values, %d expected", n, k);
    return 1;
  }
  if (implicit_answers_reserve(s, np ? np : 1, total ? total : 1)) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  k = 1;
  for (int i = 0, at = 0; i < np; i++) {
    struct implicit_answer *p = &s->a[i];
    p->sa = (int)buf[k], p->sb = (int)buf[k + 1], p->m2 = (int)buf[k + 2], p->at = at;
    memcpy(s->val + at, buf + k + 3, (size_t)(s->base + p->m2) * sizeof *s->val);
    at += s->base + p->m2;
    k += 3 + s->base + p->m2;
  }
  s->n = np;
  return 0;
}
