/* sweep_capture.h — where a run's captured problems go (-cp_capture FILE): one corpus writer per rank,
 * opened before the first task and closed at the end of the run. Tasks run in-process add their problems to
 * it directly; forked tasks send them through a pipe each (corpus_stream.h) to a writer process the rank
 * starts before its first task, so a task never opens the HDF5 file (the cost that dominated short tasks).
 * The writer's batches (corpus.h) keep what is on disk readable at every moment but a batch's write. */
#ifndef CB_SWEEP_CAPTURE_H
#define CB_SWEEP_CAPTURE_H

#include "corpus_stream.h"
#include "sweep.h"

/* Before the first task, when -cp_capture is on: opens the rank's writer, in a writer process of its own
 * when tasks are forked (forked 1). 0, or 1 with err (another writer holds the file, it is damaged, the
 * process could not start): the run must not start. */
int sweep_capture_start(const struct sweep_capture *set, int forked, char *err, size_t len);
/* In the rank, between tasks: 1 once a write has failed (the message is printed) or the writer process is
 * gone: the run stops. */
int sweep_capture_failed(void);

/* Before forking a task: its pipe (fds[0] = -1 when there is no writer process). 0, or 1. */
int sweep_capture_pipe(int fds[2]);
/* After the fork, in the task: its problems go to fds[1] from now on. */
void sweep_capture_child(int fds[2]);
/* After the fork, in the rank: hands fds[0] to the writer process and closes the rank's copies. */
void sweep_capture_attach(int fds[2]);

/* In a forked task, at the end of each task (before its row is sent): writes the problems it still holds.
 * 0, or 1 when the rank's process is gone. */
int sweep_capture_task_end(void);

/* Captures one step's problem p (cb: a callback problem's rebuild data, or NULL) described by m. Returns 0,
 * or 1 when no more problems of this task are wanted (the file is full at -cp_capture_max, or a write
 * failed: a warning said which). */
int sweep_capture_add(const struct sweep_capture *set, const struct cp_problem *p,
                      const struct corpus_meta *m, const struct corpus_callback *cb);

/* At the end of the run: the last batch is written and the file closed (by the writer process, which the
 * rank waits for). 0, or 1 when any write of the run failed. */
int sweep_capture_close(void);

#endif
