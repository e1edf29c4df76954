// Serial stand-in for oneTBB's blocked_range (portable builds only).
#ifndef DMLCPU_EXECUTOR_SERIAL_TBB_BLOCKED_RANGE_H_
#define DMLCPU_EXECUTOR_SERIAL_TBB_BLOCKED_RANGE_H_

#include <cstddef>

namespace tbb {

template <typename T>
class blocked_range {
 public:
  blocked_range(T begin, T end, size_t grain = 1) : begin_(begin), end_(end) { (void)grain; }
  T begin() const { return begin_; }
  T end() const { return end_; }

 private:
  T begin_, end_;
};

}  // namespace tbb

#endif  // DMLCPU_EXECUTOR_SERIAL_TBB_BLOCKED_RANGE_H_
