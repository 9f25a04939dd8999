/* implicit_answers.h — the last step's answers per pair of shapes of the geometrically implicit formulations
 * (Chakraborty, Berard, Akella & Trinkle, Secs. 4-5; implicit_step.h): the warm start that shifts the next
 * step's unknowns, and what the formulations carry between steps (implicit_carry.h). A pair is keyed by its
 * world shapes (sa: body 1 or the compliant body, sb) and holds width + m2 values in the step's own order
 * with the friction slots always present (implicit_step.h's free block, then its complementarity block; zeros
 * without friction), body 2's inequalities m2, and the friction frame's axis (3D). */
#ifndef CB_IMPLICIT_ANSWERS_H
#define CB_IMPLICIT_ANSWERS_H

#include <stddef.h>

struct implicit_answer {
  int sa, sb, m2, axis;
  int at; /* its values start at implicit_answers.val + at */
};

struct implicit_answers {
  int dim, fr; /* the layout they were recorded in: 2 or 3 (0: none yet), with friction unknowns or not */
  int width;   /* values per pair besides its m2 multipliers */
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
/* Appends the pair (sa, sb) after a reserve (room is the caller's to count); returns its values. */
double *implicit_answers_add(struct implicit_answers *s, int sa, int sb, int m2, int axis);
/* The layout of the step about to be assembled: the answers of another one (dimension, friction) are
 * dropped, as they do not fit its unknowns. */
void implicit_answers_layout(struct implicit_answers *s, int dim, int fr, int width);

#endif
