/* drive_fixture.h — the worlds with the world's drives (motors, support friction, prismatic and mirror
 * joints) whose motion is known in closed form, shared by the tests of every formulation that steps them
 * (test_drives.c: stewart_trinkle; test_implicit_drives.c: geometric_implicit), and the steps of the
 * semi-implicit Euler scheme they must follow. No gravity in the plane unless said; each builder returns a
 * finalised world, NULL when the world refused a part. */
#ifndef CB_DRIVE_FIXTURE_H
#define CB_DRIVE_FIXTURE_H

#include "world.h"

/* A disc (radius 0.01) of mass m on three support points about its centre (m g / 3 each, g = 9.81),
 * 8 directions, friction mu, viscous damping. */
struct world *drive_support_disc(double m, double mu, double damping);
/* A disc of mass m with a motor along axis (speed vstar, force limit F), from rest. */
struct world *drive_motor_disc(double m, const double axis[3], double vstar, double F);
/* A disc of mass m on a prismatic joint through the origin along (cos alpha, -sin alpha), under gravity
 * (0, -9.81). */
struct world *drive_incline_slider(double m, double alpha);
/* Two discs of masses ma (body 0, at x = 0.05) and mb (body 1, at -0.05) linked as mirror images along x
 * about the origin. */
struct world *drive_mirror_pair(double ma, double mb);

/* n steps of length h with the named formulation and solver: the failed solves, -1 when a step failed
 * outside its solve, a creator failed or the formulation does not take w. */
int drive_steps(struct world *w, int n, double h, const char *formulation, const char *solver);

/* One step of length h as drive_steps, with the stepper's report of the world's drives' impulse
 * (stepper_drive_impulse, w->ndof entries) into g: 0, 1 when the step failed, -1 when it could not be made
 * or the formulation reported no drive impulse. */
int drive_step_impulse(struct world *w, double h, const char *formulation, const char *solver, double *g);

/* The scheme's distances: a slide from v0 decelerating at a until it stops (v_k = v0 - k a h, x = h sum
 * v_k), and a fall from rest accelerating at a for n steps (v_i = i a h). */
double drive_slide_distance(double v0, double a, double h);
double drive_fall_distance(double a, int n, double h);

#endif
