/* world.h — the rigid-body world every formulation simulates (design.md contract 5).
 * Layout: a world holds bodies, shapes (convex parts, each owned by one body, given in that body's frame;
 * a body with several parts is a union of convex parts) and bilateral joints. The body origin is its
 * centre of mass. 2D bodies: x[0..1], theta, v[0..1], w[2] (= omega). 3D bodies: x[0..2], unit quaternion
 * q (scalar first, renormalised each step), v[0..2], w[0..2] — angular velocity in the WORLD frame.
 * Generalised velocity nu: per dynamic body, 3 entries (vx, vy, omega) in 2D, 6 (v, w) in 3D, at offset
 * body.dof; static bodies have dof = -1 and take no unknowns.
 * Contacts (contact detection: world_detect, world_detect.c): normal n points from body b towards body a
 * (an impulse p_n >= 0 pushes a along +n and b along -n); gap psi = n . (pa - pb) < 0 when penetrating.
 * 3D narrow phase: contact3d.h (the 3D geometry module); 2D narrow phase: contact2d.c. */
#ifndef CB_WORLD_H
#define CB_WORLD_H

#include "polytope.h"

#include <stddef.h>
#include <stdio.h>

enum shape_kind {
  SHAPE_DISC = 1,             /* 2D: centre c[0..1], radius */
  SHAPE_POLYGON = 2,          /* 2D: convex polygon, counter-clockwise vertices (struct polygon) */
  SHAPE_HALFPLANE = 4,        /* 2D: solid {x : n . x <= d} in the body frame (usually a static body) */
  SHAPE_SPHERE = 8,           /* 3D: centre c[0..2], radius */
  SHAPE_POLYHEDRON = 16,      /* 3D: convex polyhedron (struct polyhedron) */
  SHAPE_PLANE = 32,           /* 3D: solid half-space {x : n . x <= d} in the body frame */
  SHAPE_SUPERELLIPSE = 64,    /* 2D: Barr superellipse |x/a|^p + |y/b|^p <= 1 about c (struct superellipse) */
  SHAPE_SUPERELLIPSOID = 128, /* 3D: |x/a|^p + |y/b|^p + |z/c|^p <= 1 about c (struct superellipsoid) */
};

/* A superellipse in its body's frame (world_superellipse.c): |u/a|^p + |v/b|^p <= 1 in the frame centred at
 * the shape's c and turned by angle; p even >= 2 (p = 2 the ellipse). area and second_moment (integral of
 * |x|^2 dA about the body origin, unit density) by the Beta-function closed form. */
struct superellipse {
  double a, b, angle;
  int p;
  double area, second_moment;
};

/* A superellipsoid in its body's frame (world_superellipsoid.c): |u/a_0|^p + |v/a_1|^p + |w/a_2|^p <= 1 in
 * the frame centred at the shape's c and turned by the unit quaternion q (scalar first, shape -> body);
 * p even >= 2 (p = 2 the ellipsoid). volume and inertia (about the body origin, body frame, unit density) by
 * the Beta-function closed form. */
struct superellipsoid {
  double a[3], q[4];
  int p;
  double volume, inertia[9];
};

struct shape {
  enum shape_kind kind;
  int body;                /* owning body */
  double c[3];             /* disc / sphere centre (body frame) */
  double radius;           /* disc / sphere radius; polygons / polyhedra: bounding radius about the origin;
                              superellipse: max(a, b), its bounding radius about c */
  double n[3], d;          /* half-plane / plane (body frame) */
  struct polygon *polygon; /* owned by the shape */
  struct polyhedron *polyhedron; /* owned by the shape */
  struct superellipse se;        /* SHAPE_SUPERELLIPSE (radius = max(a, b) about c) */
  struct superellipsoid sq;      /* SHAPE_SUPERELLIPSOID (radius = max(a_k) about c) */
};

struct body {
  int is_static;
  int dof;   /* offset into nu; -1 for static bodies */
  int group; /* bodies sharing a nonzero group never collide (e.g. jointed links) */
  double mass;
  double inertia;               /* 2D: scalar moment about the origin */
  double inertia3[9];           /* 3D: body-frame inertia tensor, row-major */
  double x[3];                  /* position of the origin (centre of mass) */
  double theta;                 /* 2D orientation */
  double q[4];                  /* 3D orientation, unit quaternion (w, x, y, z) */
  double v[3];                  /* linear velocity */
  double w[3];                  /* angular velocity (2D: w[2]; 3D: world frame) */
  double f[3];                  /* applied force (world frame), in addition to gravity; kept across steps */
  double tau[3];                /* applied torque (2D: tau[2]); kept across steps */
  int shape_begin, shape_count; /* parts: world.shapes[shape_begin .. shape_begin + shape_count - 1] */
  double bound_radius;          /* bounding sphere about the origin over all bounded parts */
  int unbounded;                /* has a half-plane / plane part (treated by the broad phase apart) */
};

enum joint_kind {
  JOINT_REVOLUTE_2D = 1,  /* a pin: pa (a's frame) on pb (b's frame; the world's when b = -1); 2 rows */
  JOINT_BALL_3D = 2,      /* the same in 3D; 3 rows */
  JOINT_PRISMATIC_2D = 3, /* a slides along axis (b's frame; the world's when b = -1) through pb, its
                             turn relative to b held at angle; pa on the line: 2 rows (across, turn) */
  JOINT_MIRROR_2D = 4,    /* a and b move as mirror images along axis (world) about the point pb:
                             axis . (x_a + x_b) = 2 axis . pb (a parallel gripper's linked jaws); 1 row */
};

struct joint {
  enum joint_kind kind;
  int a, b;
  double pa[3], pb[3];
  double axis[3]; /* prismatic and mirror joints: the unit axis */
  double angle;   /* prismatic: theta_a - theta_b held */
};

/* A force-limited velocity motor (a servo whose current is limited): it drives body's velocity along the
 * unit axis (world) towards speed with a force of at most max_force. In a time-stepping scheme with
 * Coulomb-like rows: the motor's impulse p, |p| <= max_force h, is maximal-dissipative on the velocity
 * error axis . v - speed (Stewart-Trinkle's friction rows with a known bound). */
struct motor {
  int body;
  double axis[3], speed, max_force;
};

/* Support friction of a planar body resting on points out of its plane (the 2.5D model of Berard et al.,
 * "daVinci Code", ICRA 2007, after Mason): the body moves in the plane; point i (body frame p[i]) carries
 * the known normal force normal[i] out of the plane, so its in-plane friction force is bounded by
 * mu normal[i]; the formulations discretise that disc with dirs directions. Viscous damping: force -damping
 * v, torque -damping (sum |p_i|^2 / n) omega, applied explicitly. 2D worlds only. */
#define WORLD_SUPPORT_POINTS 4
struct support_friction {
  int body, n, dirs;
  double p[WORLD_SUPPORT_POINTS][2], normal[WORLD_SUPPORT_POINTS];
  double mu, damping;
};

enum feature_kind {
  FEATURE_NONE = 0,
  FEATURE_VERTEX,  /* polygon / polyhedron vertex: id = vertex index */
  FEATURE_EDGE,    /* polygon edge (2D) or polyhedron edge (3D): id = edge index */
  FEATURE_FACE,    /* polyhedron face: id = face index */
  FEATURE_SURFACE, /* smooth part: disc / sphere surface, half-plane / plane; id = 0 */
};

enum broad_phase { BROAD_SWEEP = 0, BROAD_ALL_PAIRS = 1 };

struct world {
  int dim; /* 2 or 3 */
  int nb, cap_b;
  struct body *bodies;
  int ns, cap_s;
  struct shape *shapes;
  int nj, cap_j;
  struct joint *joints;
  int nm, cap_m;
  struct motor *motors;
  int nsup, cap_sup;
  struct support_friction *supports;
  int ndof; /* unknowns of nu, valid after world_finalize */
  double gravity[3];
  double mu;        /* Coulomb friction coefficient copied into every contact */
  double threshold; /* proximity threshold of contact detection (potential contacts) */
  enum broad_phase broad;
  double t;
};

/* Lifecycle. */
struct world *world_create(int dim);
void world_destroy(struct world **w);

/* Building. Each returns the new index or -1 on failure (allocation, wrong dimension). Static bodies
 * ignore mass and inertia. After adding bodies and shapes, call world_finalize (dof offsets, bounds). */
int world_add_body(struct world *w, int is_static, double mass, double inertia);
int world_add_disc(struct world *w, int body, double cx, double cy, double radius);
int world_add_polygon(struct world *w, int body, int n, const double *xy); /* convex hull of the points */
int world_add_halfplane(struct world *w, int body, double nx, double ny, double d);
int world_add_sphere(struct world *w, int body, const double c[3], double radius);
/* Takes ownership of ph (the shape frees it with polyhedron_free). */
int world_add_polyhedron(struct world *w, int body, struct polyhedron *ph);
int world_add_plane(struct world *w, int body, const double n[3], double d);
/* A superellipse (struct superellipse) of body; refused (-1, msg naming the shape and what is wrong) for a
 * semi-axis that is not positive and finite or an exponent that is not an even integer >= 2. msg may be
 * NULL. world_superellipse.c. */
int world_add_superellipse(struct world *w, int body, double cx, double cy, double angle, double a, double b,
                           int p, char *msg, size_t len);
/* Area and polar second moment about its own centre of the uniform superellipse (a, b, p): Beta-function
 * closed forms A = 2ab B(1/p, 1/p) / p, J = ab (a^2 + b^2) B(3/p, 1/p) / p (Dirichlet's integral). */
void superellipse_mass_properties(double a, double b, int p, double *area, double *polar);
/* The moment of inertia about the body origin of a body of the given mass made of the superellipse s. */
double world_superellipse_inertia(const struct shape *s, double mass);
/* A superellipsoid (struct superellipsoid) of body centred at c, turned by the quaternion q (normalised
 * here); refused (-1, msg naming the shape and what is wrong) for a semi-axis that is not positive and
 * finite, an exponent that is not an even integer >= 2, a centre or quaternion that is not finite (or a zero
 * quaternion), or a 2D world. msg may be NULL. world_superellipsoid.c. */
int world_add_superellipsoid(struct world *w, int body, const double c[3], const double q[4],
                             const double a[3], int p, char *msg, size_t len);
/* Volume and second moments S_k = integral of x_k^2 dV (own frame, about its centre) of the uniform
 * superellipsoid (a, p): V = 8 a0 a1 a2 B(1/p, 1/p) B(2/p, 1/p) / (3 p^2),
 * S_0 = 8 a0^3 a1 a2 B(3/p, 1/p) B(4/p, 1/p) / (5 p^2) (Dirichlet's integral; S_1, S_2 alike). */
void superellipsoid_mass_properties(const double a[3], int p, double *volume, double second[3]);
/* The inertia tensor (body frame, about the body origin, row-major) of a body of the given mass made of the
 * superellipsoid s. */
void world_superellipsoid_inertia(const struct shape *s, double mass, double J[9]);
/* A new zeroed shape of kind appended to body (the last body added); NULL when body is not the last one, the
 * kind does not fit the world's dimension, or out of memory. For the world's constructors. */
struct shape *world_new_shape(struct world *w, int body, enum shape_kind kind);
/* The name of a shape kind ("disc", "superellipse", ...) for messages. */
const char *world_shape_kind_name(enum shape_kind kind);
int world_add_joint(struct world *w, enum joint_kind kind, int a, int b, const double pa[3],
                    const double pb[3]);
/* A prismatic joint (JOINT_PRISMATIC_2D): a slides along axis (b's frame; normalised here) through the
 * point pb (b's frame), a's point pa on that line, the present turn of a relative to b held. */
int world_add_slider(struct world *w, int a, int b, const double pa[3], const double pb[3],
                     const double axis[3]);
/* A mirror joint (JOINT_MIRROR_2D): a and b move as mirror images along axis (world; normalised here)
 * about the world point c. */
int world_add_mirror(struct world *w, int a, int b, const double c[3], const double axis[3]);
/* The joint's rows (2D revolute 2, 3D ball 3, prismatic 2, mirror 1) and their violations phi (how far the
 * joint is open, the rows' order: jacobian_joint_columns). */
int world_joint_row_count(const struct joint *j);
void world_joint_violation(const struct world *w, const struct joint *j, double *phi);
/* A motor (struct motor; axis normalised here) on a dynamic body; -1 for a static body, a zero axis or a
 * max_force that is not positive and finite. */
int world_add_motor(struct world *w, int body, const double axis[3], double speed, double max_force);
/* Support friction (struct support_friction) under a dynamic body of a 2D world: n points
 * (1..WORLD_SUPPORT_POINTS), p in the body's frame (2n doubles), normal forces >= 0, mu >= 0, dirs >= 3,
 * damping >= 0; -1 otherwise. */
int world_add_support(struct world *w, int body, int n, const double *p, const double *normal, double mu,
                      int dirs, double damping);
int world_finalize(struct world *w);

/* Kinematics. */
void world_rotation(const struct world *w, const struct body *b, double R[9]); /* body -> world, row-major */
void world_point(const struct world *w, const struct body *b, const double local[3], double out[3]);
void world_vector(const struct world *w, const struct body *b, const double local[3], double out[3]);
/* Velocity of the world point p rigidly attached to b. */
void world_point_velocity(const struct world *w, const struct body *b, const double p[3], double out[3]);
/* World-frame inverse inertia (3D: R J^-1 R^T; 2D: 1/I in out[8], rest 0); zero for static bodies. */
void world_inverse_inertia(const struct world *w, const struct body *b, double out[9]);
/* nu <-> body velocities. */
void world_get_velocity(const struct world *w, double *nu);
void world_set_velocity(struct world *w, const double *nu);
/* Semi-implicit Euler position update from the current velocities: x += h v; 2D theta += h omega;
 * 3D q += h/2 (0, w) * q, renormalised. */
void world_integrate_positions(struct world *w, double h);
/* Generalised force of gravity, applied forces, the supports' viscous damping and (3D) the gyroscopic
 * term -w x (I w). */
void world_external_force(const struct world *w, double *k);
/* Inverse mass matrix applied to a generalised vector: out = M^-1 in (out may equal in). */
void world_apply_inverse_mass(const struct world *w, const double *in, double *out);
/* The mass matrix as a dense ndof x ndof row-major block (zeroed first). */
void world_mass_matrix(const struct world *w, double *M);

/* The bodies' state as it is now (positions, velocities: the step start a check or a retry goes back to)
 * copied into *buf, which grows to w->nb bodies (*cap: its capacity; NULL and 0 at first). 0, or 1 when it
 * could not grow (*buf unchanged). */
int world_bodies_save(const struct world *w, struct body **buf, int *cap);

/* Metrics. */
double world_kinetic_energy(const struct world *w);
/* The fastest dynamic body's centre speed |v| (a blow-up shows here first). */
double world_max_speed(const struct world *w);
/* How far the joints are open (0 without joints): the largest over the joints of the distance between a
 * pin's anchor points, or of a prismatic or mirror joint's largest row violation [m, or rad for a turn]. */
double world_joint_gap(const struct world *w);
double world_potential_energy(const struct world *w); /* -m g . x summed over dynamic bodies */
double world_energy(const struct world *w);

#endif
