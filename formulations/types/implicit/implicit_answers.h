/* implicit_answers.h — the geometrically implicit formulation's answers of the last step per pair of shapes
 * (Chakraborty, Berard, Akella & Trinkle, Sec. 4; 2D, geometric_implicit.c): the warm start that shifts the
 * next step's unknowns, and its export as the state a formulation carries between steps (formulation.h
 * carry_get / carry_set), so that a captured step can be assembled again exactly. A pair is keyed by its
 * world shapes (sa, sb) and holds base + m2 values: the free unknowns and the complementarity block of a
 * contact whose body 2 has m2 inequalities (quasi_rigid3d.c keeps m2 = 0: a fixed block per pair). Export
 * layout: [count; per pair sa, sb, m2, its values]. */
#ifndef CB_IMPLICIT_ANSWERS_H
#define CB_IMPLICIT_ANSWERS_H

#include <stddef.h>

struct implicit_answer {
  int sa, sb, m2;
  int at; /* its values start at implicit_answers.val + at */
};

struct implicit_answers {
  int base;   /* values per pair besides its m2 (the caller's layout; set before use) */
  int m2_min; /* the fewest inequalities a pair's body 2 can have (geometric_implicit: 1; 0 when unused) */
  struct implicit_answer *a;
  int n, cap;
  double *val;
  int cap_val;
};

void implicit_answers_free(struct implicit_answers *s);
/* The pair (sa, sb), or NULL. */
const struct implicit_answer *implicit_answers_find(const struct implicit_answers *s, int sa, int sb);
/* Room for n pairs holding total values, the old ones dropped; 0, or 1 on allocation failure. */
int implicit_answers_reserve(struct implicit_answers *s, int n, int total);
/* The export (layout above) into buf when it fits in cap; returns the length needed. */
int implicit_answers_export(const struct implicit_answers *s, double *buf, int cap);
/* Replaces the answers by an export's n values; nothing changes unless all of them fit the layout. 0, or 1
 * with msg saying what is wrong. */
int implicit_answers_import(struct implicit_answers *s, const double *buf, int n, char *msg, size_t len);

#endif
