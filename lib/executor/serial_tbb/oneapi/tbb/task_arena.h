// Serial stand-in for the part of oneTBB's task_arena that the executor uses, for portable
// builds (DMLCPU_PORTABLE) on targets without oneTBB. Work runs on the calling thread.
#ifndef DMLCPU_EXECUTOR_SERIAL_TBB_TASK_ARENA_H_
#define DMLCPU_EXECUTOR_SERIAL_TBB_TASK_ARENA_H_

namespace tbb {

class task_arena {
 public:
  explicit task_arena(int max_concurrency = -1) : max_concurrency_(max_concurrency) {}
  int max_concurrency() const { return max_concurrency_ > 0 ? max_concurrency_ : 1; }
  template <typename F>
  auto execute(F&& f) -> decltype(f()) {
    return f();
  }

 private:
  int max_concurrency_;
};

namespace this_task_arena {
template <typename F>
auto isolate(F&& f) -> decltype(f()) {
  return f();
}
}  // namespace this_task_arena

}  // namespace tbb

#endif  // DMLCPU_EXECUTOR_SERIAL_TBB_TASK_ARENA_H_
