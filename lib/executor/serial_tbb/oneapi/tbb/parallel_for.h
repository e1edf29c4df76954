// Serial stand-in for oneTBB's parallel_for (portable builds only): the body gets the whole range.
#ifndef DMLCPU_EXECUTOR_SERIAL_TBB_PARALLEL_FOR_H_
#define DMLCPU_EXECUTOR_SERIAL_TBB_PARALLEL_FOR_H_

namespace tbb {

template <typename Range, typename Body>
void parallel_for(const Range& range, const Body& body) {
  body(range);
}

template <typename Range, typename Body, typename Partitioner>
void parallel_for(const Range& range, const Body& body, const Partitioner&) {
  body(range);
}

}  // namespace tbb

#endif  // DMLCPU_EXECUTOR_SERIAL_TBB_PARALLEL_FOR_H_
