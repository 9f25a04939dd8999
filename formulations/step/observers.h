/* observers.h — physics observers of the run loop (run.h): what an experiment measures per step that
 * needs the world, kept out of the stepper so a run pays only for what its driver reports. Each creator
 * fills *o (its own context; release with run_observers_destroy) and writes its results into the
 * caller's struct, which stays valid after the observer is destroyed. 0 on success, 1 on allocation
 * failure. Trace columns are named in each creator's comment. */
#ifndef CB_OBSERVERS_H
#define CB_OBSERVERS_H

#include "run.h"

/* Standard-model traps (Williams, Lu & Trinkle 2016 Sec. 1.2.3, Fig. 2) counted on every step's start
 * state: 2D peg2d_count_traps (a vertex at a corner), 3D peg3d_count_traps (a vertex near two or more faces
 * of one part). Beside them, on the same potential contacts, the I-constraints PEG's model forms there (Sec.
 * 3: one feature against several features of another part; peg_model_build / peg3d_model_build, the
 * authors' code's rules: an I needs an applicable contact) — the count the paper's Fig. 22 and its "PEG was
 * necessary in approximately 25 % of time steps" can be read as. Trace columns: traps, i_constraints. */
struct run_trap_stats {
  long steps;            /* steps counted */
  long steps_with_traps; /* steps with at least one trap */
  long traps;            /* traps summed over the steps */
  long steps_with_i;     /* steps where PEG forms at least one I-constraint */
  long i_constraints;    /* I-constraints summed over the steps */
};
int run_observer_traps(struct run_observer *o, struct run_trap_stats *out);

/* Anitescu & Hart's normal velocity error (Sec. 4B, eqs. 6-7): per step, over the contacts that push (p_n
 * above the checker's zero, -cp_tol times the solve's scale), |n_j' nu+ + gap_j / h| with the Jacobian of
 * the step-start state — the violation of c_n perp (n'v + gap/h) (mu lambda_j for LCP2); the step's mean
 * and max are 0 when no contact pushes or the state did not advance. Trace columns: nv_error_mean,
 * nv_error_max. */
struct run_nv_stats {
  long steps;       /* steps counted */
  long contacts;    /* pushing contacts counted over the steps */
  double mean;      /* mean over the steps of the step's mean error [m/s] */
  double mean_max;  /* largest step mean [m/s] */
  double max;       /* largest error over steps and contacts [m/s] */
  double last_mean; /* the last step's mean and max [m/s] */
  double last_max;
};
int run_observer_nv_error(struct run_observer *o, struct run_nv_stats *out);

/* 2D overlap after every step that advanced the state: total intersection area over body pairs
 * (world_total_overlap_2d) and the deepest separating-axis depth (world_max_penetration_2d). area, when
 * not NULL, gets each step's area in order (at most cap entries). Trace columns: overlap, overlap_depth. */
struct run_overlap_stats {
  long n;           /* steps measured (those that advanced) */
  double area_max;  /* largest total area [m^2] */
  double depth_max; /* deepest SAT overlap [m] */
  double *area;     /* caller's array or NULL */
  long cap;
};
int run_observer_overlap(struct run_observer *o, struct run_overlap_stats *out);

/* The fastest dynamic body's speed after every step that advanced the state (a blow-up shows here
 * first). Trace columns: speed_max, kinetic_energy. */
struct run_speed_stats {
  double speed_max; /* over the steps [m/s] */
};
int run_observer_speed(struct run_observer *o, struct run_speed_stats *out);

/* A 2D body's pose (x, y, theta) at the start and after every step that advanced the state, for
 * trajectories compared with a reference run; and the joints' largest opening (world_joint_gap) over the
 * same states. The caller fills body and pose (room for the run's steps + 1 poses, or NULL) and may read
 * done and joint_gap after the run. No trace columns. */
struct run_pose_stats {
  int body;         /* the body followed */
  double *pose;     /* caller's array, 3 per state: x, y, theta; or NULL */
  long done;        /* steps that advanced */
  double joint_gap; /* largest anchor distance over the states [m] (0 without joints) */
};
int run_observer_pose(struct run_observer *o, struct run_pose_stats *out);

/* Stops the run after the first step whose solve did not converge (even when its approximate answer
 * advanced the state). No context. */
void run_observer_stop_on_failure(struct run_observer *o);

#endif
