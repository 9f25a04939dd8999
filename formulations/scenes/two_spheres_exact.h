/* two_spheres_exact.h — the exact answer of the sphere on two spheres (Chakraborty, Berard, Akella & Trinkle
 * Sec. 6.2, Figs. 4-5): the continuous-time rigid-body DAE between contact events (the active contacts as
 * holonomic constraints, Coulomb friction with the paper's ellipsoid, eq. (5)), integrated by GSL's
 * gsl_odeiv2 with its events (separation, stick to slide, slide to stick) root-refined. The equations and the
 * mode logic are in two_spheres_exact.c's header. The paper's event times move by <= 1.4e-11 s from tol
 * 1e-12 to 1e-13 and by <= 7.3e-10 s to 1e-10 (test_two_spheres_exact): trusted to 1e-10 s. Library code:
 * messages are returned in msg, never printed. */
#ifndef CB_TWO_SPHERES_EXACT_H
#define CB_TWO_SPHERES_EXACT_H

#include <stddef.h>

enum { TWO_SPHERES_MAX_EVENTS = 16 };

/* A contact's mode between events. */
enum two_spheres_mode { TWO_SPHERES_SEPARATED, TWO_SPHERES_STICKING, TWO_SPHERES_SLIDING };

struct two_spheres_problem {
  double centre[2][3], radius[2]; /* the fixed spheres (contact 1, contact 2) */
  double r, m, J;                 /* the moving sphere: radius, mass, moment of inertia (J I, isotropic) */
  double x0[3];                   /* its centre at t = 0 (touching both; at rest) */
  double force[3];                /* the constant applied force through its centre */
  double mu, e_t, e_r;            /* Coulomb coefficient; friction ellipsoid e_t = e_o (isotropic), e_r [m] */
  double t_end;                   /* [s] */
  double tol;                     /* gsl_odeiv2 absolute and relative tolerance */
  double t_tol;                   /* width of an event's bracket after refinement [s] */
  double onset;                   /* a slip's onset: friction held at the direction it has there [s] */
  double slip_speed;              /* a sliding contact's tangential slip speed |u_t| whose first crossing
                                     upwards is reported (a time stepper's slide detection) [m/s]; 0: none */
};

struct two_spheres_event {
  double t;
  int contact; /* 0: contact 1 (radius-10 sphere), 1: contact 2 */
  enum two_spheres_mode from, to;
};

struct two_spheres_answer {
  struct two_spheres_event ev[TWO_SPHERES_MAX_EVENTS];
  int n_events;
  enum two_spheres_mode mode0[2];  /* the modes chosen at t = 0 */
  double t_slide[2], t_sep[2];     /* first stick-to-slide and separation time per contact; -1: none */
  double t_slip_speed[2];          /* first time a sliding contact's |u_t| exceeds slip_speed; -1: none */
  double x[3], v[3], w[3];         /* the state at t_end */
  double gap_drift, vn_drift;      /* largest |gap| [m] and |normal velocity| [m/s] of an active contact,
                                      checked at every event and at t_end */
  double work_load, work_friction; /* over [0, t_end] [J] */
  double energy_residual;          /* |E(t_end) - E(0) - work_load - work_friction| [J] */
  long evaluations;                /* right-hand-side evaluations */
};

/* The problem of Chakraborty et al. Sec. 6.2 with the default tolerances (1e-12, 1e-12 s, onset 1e-6 s)
 * and no slip-speed threshold. */
void two_spheres_exact_paper(struct two_spheres_problem *p);

/* Integrates p to p->t_end. 0 on success; 1 with msg (a mode with no consistent forces, an impact, too
 * many events, an integrator failure). */
int two_spheres_exact(const struct two_spheres_problem *p, struct two_spheres_answer *a, char *msg,
                      size_t len);

#endif
