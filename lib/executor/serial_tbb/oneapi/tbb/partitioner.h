// Serial stand-in for oneTBB's partitioners (portable builds only): tags with no behaviour.
#ifndef DMLCPU_EXECUTOR_SERIAL_TBB_PARTITIONER_H_
#define DMLCPU_EXECUTOR_SERIAL_TBB_PARTITIONER_H_

namespace tbb {

class static_partitioner {};

}  // namespace tbb

#endif  // DMLCPU_EXECUTOR_SERIAL_TBB_PARTITIONER_H_
