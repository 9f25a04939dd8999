/* implicit_scaling.h — row and column equilibration of the geometrically implicit step's NCP (the option
 * -geometric_implicit_equilibrate; implicit_scaling.c says why): F_s(y) = R F(C y), J_s = R J C, bounds
 * divided by C, with R and C powers of two from Ruiz's iteration on the Jacobian at the guess. */
#ifndef CB_IMPLICIT_SCALING_H
#define CB_IMPLICIT_SCALING_H

struct implicit_scaling {
  int n;           /* 0: no scaling (the step's problem is solved as assembled) */
  double *r, *c;   /* the row and column scales */
  double *row_max; /* 2 n: the Ruiz sweep's row and column maxima */
  double *nz_abs;  /* the Jacobian's nonzero entries' magnitudes, row by row */
  int *nz_at;      /* 2 per nonzero: its row and column */
  int cap_r, cap_c, cap_m, cap_nz_abs, cap_nz_at;
};

/* R and C for the dense row-major n x n Jacobian J (sized here; 0, or 1 on allocation failure). */
int implicit_scaling_set(struct implicit_scaling *sc, int n, const double *J);
/* The unscaled unknowns C y into z (n entries), returned; y itself when there is no scaling. */
const double *implicit_scaling_unscale(const struct implicit_scaling *sc, const double *y, double *z);
/* F <- R F, and J <- R J C when J is not NULL. */
void implicit_scaling_rows(const struct implicit_scaling *sc, double *F, double *J);
/* lo <- lo / C, hi <- hi / C. */
void implicit_scaling_bounds(const struct implicit_scaling *sc, double *lo, double *hi);
void implicit_scaling_free(struct implicit_scaling *sc);

#endif
