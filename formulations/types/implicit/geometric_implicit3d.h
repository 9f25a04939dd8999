/* geometric_implicit3d.h — the 3D half of the geometrically implicit formulation (geometric_implicit.c
 * dispatches to it for 3D worlds): Chakraborty, Berard, Akella & Trinkle, eqs. (21)-(22) with the rows of
 * Proposition 1, unit quaternions, ellipsoidal friction with e_t, e_o, e_r. */
#ifndef CB_GEOMETRIC_IMPLICIT3D_H
#define CB_GEOMETRIC_IMPLICIT3D_H

#include "contact_set.h"
#include "formulation.h"
#include "world.h"

struct gi3_data;

/* Assembles the step's mixed NCP into *out (stored shifted by the warm start); 0, or 1 after
 * formulation_fail. *d is created on first use. */
int gi3_assemble(struct formulation *f, struct gi3_data **d, const double e[3], const struct world *w,
                 const struct contact_set *cs, double h, struct cp_problem **out);
/* nu and the normal impulses from the solution z; remembers the answer per pair for the next warm start. */
int gi3_recover(struct formulation *f, struct gi3_data *d, const struct world *w, const double *z, double *nu,
                double *pn);
void gi3_free(struct gi3_data **d);
/* The carried state (formulation.h carry_get): [nprev; per pair sa, sb, axis, its answers]. */
int gi3_carry_get(const struct gi3_data *d, double *buf, int cap);
int gi3_carry_set(struct formulation *f, struct gi3_data **d, const double *buf, int n);

/* One contact's answer at the last step (an observer's view of the mixed NCP's solution, e.g. for Sec. 6.2's
 * Figs. 5a, 5b): the world shapes of body 1 (f) and body 2 (g), the impulses and the slip multiplier. */
struct gi3_contact_result {
  int sa, sb;
  double pn, pt, po, pr, sigma;
  double a1[3], a2[3];
};
/* The number of contacts of the last step of a 3D geometric_implicit formulation (0 for any other
 * formulation); fills *out for contact i when 0 <= i < that number. */
int geometric_implicit_results(const struct formulation *f, int i, struct gi3_contact_result *out);
int gi3_results(const struct gi3_data *d, int i, struct gi3_contact_result *out);

#endif
